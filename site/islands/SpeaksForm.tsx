/**
 * "I speak" on /profile (docs/practice.md, Pages): the languages a member reads, best first, which the
 * reader and the review use to pick a phrase's translation. The list is edited in place (add, move up
 * or down, remove) and saved with one `PUT user/profile { speaks }`.
 *
 * Keyboard and screen readers: every action is a real button named after its language ("Move German
 * up"); the focus stays on the moved language (on its other move button when the first one has just
 * become disabled), goes to a neighbour after a removal, and each change is announced in a live region.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type SubmitEvent } from 'react';
import { api, errorMessage, type ApiError } from '../lib/api';
import { COMMON_LANGUAGES, canonicalTag, languageLabel, languageName } from '../lib/languages';
import type { ProfileResponse } from '../../server/accounts/users/users.dto';
import { forgetLearnerLanguages } from '../lib/translation-language';
import { useSubmit } from './shared/useSubmit';
import { ErrorSummary, FieldShell, SubmitButton, SuccessMessage, useHydrated } from './shared/Form';

/** docs/practice.md: at most 5 tags. */
export const MAX_SPEAKS = 5;
const OTHER = 'other';

interface Props {
  speaks: readonly string[];
  onSaved: (profile: ProfileResponse) => void;
}

/** The first message the server gave about the list or one of its entries (`speaks`, `speaks.1`, …). */
function speaksError(error: ApiError | null): string | undefined {
  if (!error) return undefined;
  const key = Object.keys(error.fieldErrors).find(
    (field) => field === 'speaks' || field.startsWith('speaks.'),
  );
  return key ? error.fieldError(key) : undefined;
}

/** The browser's own languages, canonical, first occurrence kept: offered first in the list. */
function browserTags(): string[] {
  if (typeof navigator === 'undefined') return [];
  const tags = (navigator.languages ?? []).map((tag) => canonicalTag(tag)).filter((t): t is string => !!t);
  return [...new Set(tags)];
}

export function SpeaksForm({ speaks, onSaved }: Props) {
  const { busy, error, success, run } = useSubmit();
  const ready = useHydrated();
  const [list, setList] = useState<string[]>([...speaks]);
  const [choice, setChoice] = useState('');
  const [typed, setTyped] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  /** The control to focus once the list has re-rendered (after a move or a removal). */
  const focusNext = useRef<string | null>(null);
  const ids = useId();
  const full = list.length >= MAX_SPEAKS;

  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  }, [list]);

  const buttonId = (tag: string, action: 'up' | 'down' | 'remove') => `${ids}-${tag}-${action}`;

  const move = (from: number, to: number, action: 'up' | 'down') => {
    const next = list.slice();
    const [tag] = next.splice(from, 1);
    next.splice(to, 0, tag);
    // At the top or the bottom, the button just pressed is disabled: its opposite takes the focus.
    const atEdge = action === 'up' ? to === 0 : to === next.length - 1;
    focusNext.current = buttonId(tag, atEdge ? (action === 'up' ? 'down' : 'up') : action);
    setList(next);
    setAnnouncement(`${languageName(tag)} moved to place ${to + 1} of ${next.length}.`);
  };

  const removeAt = (index: number) => {
    const tag = list[index];
    const next = list.filter((_, i) => i !== index);
    const neighbour = next[index] ?? next[index - 1];
    focusNext.current = neighbour ? buttonId(neighbour, 'remove') : `${ids}-choice`;
    setList(next);
    setAnnouncement(`${languageName(tag)} removed.`);
  };

  const add = () => {
    const raw = choice === OTHER ? typed.trim() : choice;
    if (!raw) return setAddError(choice === OTHER ? 'Type a language code.' : 'Choose a language first.');
    const tag = canonicalTag(raw);
    if (!tag) return setAddError(`“${raw}” is not a language code such as en, pt-BR or gsw.`);
    if (list.includes(tag)) return setAddError(`${languageName(tag)} is already in your list.`);
    if (full) return setAddError(`You can choose up to ${MAX_SPEAKS} languages.`);
    setAddError(null);
    // The fifth disables Add, which had the focus: the language list's select takes it.
    if (list.length + 1 >= MAX_SPEAKS) focusNext.current = `${ids}-choice`;
    setList([...list, tag]);
    setChoice('');
    setTyped('');
    setAnnouncement(`${languageName(tag)} added, place ${list.length + 1} of ${list.length + 1}.`);
  };

  async function save(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const answer = await run(() =>
      api<{ message: string; data: ProfileResponse }>('user/profile', {
        method: 'PUT',
        body: { speaks: list },
      }),
    );
    if (!answer) return;
    // The server's spelling ("pt-br" is kept as "pt-BR").
    setList([...answer.data.speaks]);
    // The reader keeps the languages for the visit: the next chapter asks for the new ones.
    forgetLearnerLanguages(answer.data.id);
    onSaved(answer.data);
  }

  const fromBrowser = browserTags().filter((tag) => !list.includes(tag));
  const common = COMMON_LANGUAGES.filter(({ tag }) => !list.includes(tag) && !fromBrowser.includes(tag));
  const listError = speaksError(error);
  const hintId = `${ids}-hint`;
  const listErrorId = `${ids}-error`;

  return (
    <section className="form-card" aria-labelledby="speaks-heading">
      <h2 id="speaks-heading">I speak</h2>
      <p id={hintId} className="field-hint">
        The languages you read, best first (up to {MAX_SPEAKS}). Where a phrase has a translation, the reader
        and your review show it in the first of them it has.
      </p>
      <ErrorSummary message={error ? errorMessage(error) : null} />
      <SuccessMessage>{success && <p>{success}</p>}</SuccessMessage>
      <form method="post" onSubmit={(event) => void save(event)}>
        {list.length > 0 ? (
          <ol
            className="speaks-list"
            aria-label="Languages you speak, best first"
            aria-describedby={listError ? listErrorId : undefined}
          >
            {list.map((tag, i) => {
              const name = languageName(tag);
              return (
                <li key={tag}>
                  <span className="speaks-name">
                    {languageLabel(tag)} <code>{tag}</code>
                  </span>
                  <span className="speaks-actions">
                    <button
                      type="button"
                      id={buttonId(tag, 'up')}
                      disabled={!ready || i === 0}
                      onClick={() => move(i, i - 1, 'up')}
                      aria-label={`Move ${name} up`}
                    >
                      Up
                    </button>
                    <button
                      type="button"
                      id={buttonId(tag, 'down')}
                      disabled={!ready || i === list.length - 1}
                      onClick={() => move(i, i + 1, 'down')}
                      aria-label={`Move ${name} down`}
                    >
                      Down
                    </button>
                    <button
                      type="button"
                      id={buttonId(tag, 'remove')}
                      disabled={!ready}
                      onClick={() => removeAt(i)}
                      aria-label={`Remove ${name}`}
                    >
                      Remove
                    </button>
                  </span>
                </li>
              );
            })}
          </ol>
        ) : (
          <p className="speaks-empty">
            No language chosen. Until you choose, the reader follows your browser&rsquo;s languages.
          </p>
        )}
        {listError && (
          <p id={listErrorId} className="field-error">
            {listError}
          </p>
        )}
        <p className="visually-hidden" role="status">
          {announcement}
        </p>
        <fieldset className="speaks-add">
          <legend>Add a language</legend>
          <FieldShell
            id={`${ids}-choice`}
            label="Language"
            hint={full ? `You have chosen ${MAX_SPEAKS} languages, the most there can be.` : undefined}
            error={choice === OTHER ? undefined : (addError ?? undefined)}
          >
            {(a11y) => (
              <select
                id={`${ids}-choice`}
                value={choice}
                onChange={(event) => {
                  setChoice(event.target.value);
                  setAddError(null);
                }}
                {...a11y}
              >
                <option value="">Choose a language…</option>
                {fromBrowser.length > 0 && (
                  <optgroup label="Your browser’s languages">
                    {fromBrowser.map((tag) => (
                      <option key={tag} value={tag}>
                        {languageLabel(tag)}
                      </option>
                    ))}
                  </optgroup>
                )}
                <optgroup label="Common languages">
                  {common.map(({ tag }) => (
                    <option key={tag} value={tag}>
                      {languageLabel(tag)}
                    </option>
                  ))}
                </optgroup>
                <option value={OTHER}>Another language (type its code)</option>
              </select>
            )}
          </FieldShell>
          {choice === OTHER && (
            <FieldShell
              id={`${ids}-other`}
              label="Language code"
              hint="A BCP 47 tag, such as pt-BR, gsw or zh-Hant."
              error={addError ?? undefined}
            >
              {(a11y) => (
                <input
                  id={`${ids}-other`}
                  value={typed}
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={35}
                  onChange={(event) => {
                    setTyped(event.target.value);
                    setAddError(null);
                  }}
                  // Enter adds the language typed rather than saving the list.
                  onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
                    if (event.key !== 'Enter') return;
                    event.preventDefault();
                    add();
                  }}
                  {...a11y}
                />
              )}
            </FieldShell>
          )}
          <div>
            <button
              type="button"
              className="speaks-add-button button-secondary"
              disabled={!ready || full}
              onClick={add}
            >
              Add language
            </button>
          </div>
        </fieldset>
        <div>
          <SubmitButton busy={busy}>Save languages</SubmitButton>
        </div>
      </form>
    </section>
  );
}
