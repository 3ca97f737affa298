/**
 * A phrase's translations as the admin phrase form sends them (islands/admin/TranslationsField.tsx): the
 * admin phrase routes take, in a form, one field per language, `translations[en]`, the whole set, an empty
 * text removing that language (docs/api.md, docs/practice.md).
 */
import { canonicalTag } from './languages';

/** One row of the form: its language as typed, and its text. */
export interface TranslationRow {
  key: number;
  language: string;
  text: string;
}

/**
 * The form fields sent for the rows: `[name, value]` per language, rows without a language left out (a
 * row with a text and no language is held by the browser's validation before that), and the languages
 * of `initial` that no row has any more, empty, so that the server removes them.
 */
export function translationFields(
  rows: readonly TranslationRow[],
  initial: Readonly<Record<string, string>> = {},
): Array<[string, string]> {
  const fields = new Map<string, string>();
  for (const row of rows) {
    const typed = row.language.trim();
    if (typed) fields.set(canonicalTag(typed) ?? typed, row.text);
  }
  for (const tag of Object.keys(initial)) if (!fields.has(tag)) fields.set(tag, '');
  return [...fields].map(([tag, text]) => [`translations[${tag}]`, text]);
}
