/**
 * The book form's language (and a dictionary's or word forms' languages): a text box with a list of common languages by their English names, whose
 * values are BCP 47 tags ("es", "pt-PT"). Any other tag can still be typed. An English name from the list
 * typed in full ("Spanish") is sent as its tag; the server checks whatever is sent (docs/api.md).
 */
import { useId, useState } from 'react';
import { languageName } from '../../lib/admin';
import { COMMON_LANGUAGES } from '../../lib/languages';
import { FieldShell } from '../shared/Form';

const TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

/** What is sent for what was typed: the tag of a listed language's English name, or the text itself. */
export function languageValue(typed: string): string {
  const text = typed.trim();
  const named = COMMON_LANGUAGES.find((language) => language.name.toLowerCase() === text.toLowerCase());
  return named ? named.tag : text;
}

/** The English name of what was typed, when it is a tag that names a language. */
function nameOf(typed: string): string | null {
  const value = languageValue(typed);
  if (!TAG.test(value)) return null;
  const name = languageName(value);
  return name === value ? null : name;
}

export function LanguageField({
  id,
  label,
  defaultValue,
  required,
  error,
  name: fieldName = 'language',
  hint: ownHint,
}: {
  id: string;
  label: string;
  defaultValue: string;
  required: boolean;
  error?: string;
  /** The name the tag is sent under: the book form's `language`, a dictionary's `source` or `target`. */
  name?: string;
  /** The hint for a form other than the book's. */
  hint?: string;
}) {
  const [typed, setTyped] = useState(defaultValue);
  const listId = useId();
  const name = nameOf(typed);
  const value = languageValue(typed);
  const hint =
    ownHint ??
    (required
      ? 'The language the book is written in: pick it from the list, or type its code (such as fr, es or pt-PT).'
      : 'Pick it from the list, or type its code (such as fr, es or pt-PT). Left empty, the book is under “Other language”.');
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      {(a11y) => (
        <>
          <input
            id={id}
            list={listId}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onBlur={() => value !== typed.trim() && setTyped(value)}
            autoComplete="off"
            spellCheck={false}
            required={required}
            {...a11y}
          />
          <datalist id={listId}>
            {COMMON_LANGUAGES.map((language) => (
              <option key={language.tag} value={language.tag}>
                {language.name}
              </option>
            ))}
          </datalist>
          {/* The value sent: the tag, even when the English name was typed and the form sent at once. */}
          <input type="hidden" name={fieldName} value={value} />
          <p className="field-hint" aria-live="polite">
            {name && value ? `${value}: ${name}` : ''}
          </p>
        </>
      )}
    </FieldShell>
  );
}
