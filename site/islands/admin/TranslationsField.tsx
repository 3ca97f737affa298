/**
 * The phrase form's translations (docs/practice.md, Translations): one group per language, each with its
 * language tag and its text, added and removed in place. They travel as the admin phrase routes take them
 * in a form (docs/api.md): one field per language, `translations[en]`, `translations[pt-BR]`, the whole
 * set; a language the phrase had and whose row was removed is sent empty, which removes it.
 *
 * A malformed or repeated tag is caught here first (the server's check, site/lib/languages.ts), shown
 * under its input and held by the browser's own validation, so the form is not sent with it.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { translationFields, type TranslationRow } from '../../lib/admin-translations';
import { COMMON_LANGUAGES, canonicalTag, languageName } from '../../lib/languages';
import { FieldShell } from '../shared/Form';

/** What is wrong with a row's language, or null: malformed, missing, or given to an earlier row already. */
function languageProblem(rows: readonly TranslationRow[], index: number): string | null {
  const row = rows[index];
  const typed = row.language.trim();
  if (!typed) return row.text.trim() ? 'Give the language of this translation, such as en or de.' : null;
  const tag = canonicalTag(typed);
  if (!tag) return `“${typed}” is not a language code such as en, de or pt-BR.`;
  const earlier = rows.slice(0, index).some((other) => canonicalTag(other.language.trim()) === tag);
  return earlier ? `${languageName(tag)} has a translation above already.` : null;
}

interface Props {
  /** The id of the server's message about the whole set, which the form's error summary links to. */
  errorId: string;
  /** The phrase's translations, by tag (an edit), or none (an add). */
  initial?: Record<string, string>;
  /** The server's message for a field (`translations`, `translations.de`, …). */
  error: (field: string) => string | undefined;
}

export function TranslationsField({ errorId, initial = {}, error }: Props) {
  const next = useRef(0);
  const row = (language: string, text: string): TranslationRow => ({ key: next.current++, language, text });
  const [rows, setRows] = useState<TranslationRow[]>(() =>
    Object.entries(initial).map(([language, text]) => row(language, text)),
  );
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const listId = useId();
  const prefix = useId();
  const id = (key: number, part: 'language' | 'text') => `${prefix}-${key}-${part}`;

  useEffect(() => {
    if (!focusKey) return;
    document.getElementById(focusKey)?.focus();
    setFocusKey(null);
  }, [focusKey]);

  const change = (key: number, part: 'language' | 'text', value: string) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, [part]: value } : r)));

  const add = () => {
    const added = row('', '');
    setRows((all) => [...all, added]);
    setFocusKey(id(added.key, 'language'));
  };

  const remove = (index: number) => {
    const rest = rows.filter((_, i) => i !== index);
    setRows(rest);
    const neighbour = rest[index] ?? rest[index - 1];
    setFocusKey(neighbour ? id(neighbour.key, 'language') : `${prefix}-add`);
  };

  const listError = error('translations');
  return (
    <fieldset className="translations">
      <legend>Translations</legend>
      <p className="field-hint">
        One per language. Readers see the one in a language they speak, under the phrase, when they ask for
        it.
      </p>
      {listError && (
        <p id={errorId} className="field-error" tabIndex={-1}>
          {listError}
        </p>
      )}
      {rows.length === 0 && <p className="translations-none">This phrase has no translation.</p>}
      {rows.map((r, index) => {
        const problem = languageProblem(rows, index);
        const tag = canonicalTag(r.language.trim());
        const serverError = tag ? error(`translations.${tag}`) : undefined;
        const name = tag && languageName(tag) !== tag ? languageName(tag) : null;
        return (
          <fieldset key={r.key} className="translation-row">
            <legend>
              Translation {index + 1}
              {name ? `: ${name}` : ''}
            </legend>
            <FieldShell
              id={id(r.key, 'language')}
              label="Language"
              hint="Its code, such as en, de or pt-BR."
              error={problem ?? undefined}
            >
              {(a11y) => (
                <input
                  id={id(r.key, 'language')}
                  list={listId}
                  value={r.language}
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={35}
                  ref={(input) => input?.setCustomValidity(problem ?? '')}
                  onChange={(event) => change(r.key, 'language', event.target.value)}
                  onBlur={() => tag && tag !== r.language && change(r.key, 'language', tag)}
                  {...a11y}
                />
              )}
            </FieldShell>
            <FieldShell id={id(r.key, 'text')} label="Text" error={serverError}>
              {(a11y) => (
                <textarea
                  id={id(r.key, 'text')}
                  rows={2}
                  value={r.text}
                  required={Boolean(r.language.trim())}
                  onChange={(event) => change(r.key, 'text', event.target.value)}
                  {...a11y}
                />
              )}
            </FieldShell>
            <div>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => remove(index)}
                aria-label={`Remove translation ${index + 1}${name ? ` (${name})` : ''}`}
              >
                Remove
              </button>
            </div>
          </fieldset>
        );
      })}
      <datalist id={listId}>
        {COMMON_LANGUAGES.map((language) => (
          <option key={language.tag} value={language.tag}>
            {language.name}
          </option>
        ))}
      </datalist>
      {translationFields(rows, initial).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div>
        <button id={`${prefix}-add`} type="button" className="button button-secondary" onClick={add}>
          Add a translation
        </button>
      </div>
    </fieldset>
  );
}
