import type { DataSource, EntityManager } from 'typeorm';
import { formOf, MAX_FORM } from '../../platform/common/running-words';
import { primaryTag } from '../../platform/common/language-tags';
import { sql } from '../../platform/database/sql';

/**
 * Before the key of a form with several lemmas: no word-like segment holds it, so such a key never equals
 * a lemma's or a plain form's.
 */
export const AMBIGUOUS = '~';

/** Spellings asked per statement: with the language's two, well under SQLite's 999 bound values. */
const PER_QUERY = 400;

/** A form's key and the lemma it stands for (null: the form is its own key). */
export interface WordKey {
  key: string;
  lemma: string | null;
}

/**
 * The key each form's status and counts are kept under (docs/word-status.md): its lemma, in lower case,
 * when the language's live word forms give the form exactly one ("perros" → perro); with several, the form
 * itself marked as ambiguous (AMBIGUOUS), so that marking "casas" known (casa or casar?) never marks
 * "casar" known too; with none, the form itself (so "perro" meets perros' key). `forms`: each form with
 * the spellings it was met in ("Häuser" and "häuser"), since word forms keep a source's case.
 */
export async function wordKeys(
  db: DataSource | EntityManager,
  lang: string,
  forms: Map<string, Iterable<string>>,
): Promise<Map<string, WordKey>> {
  const keys = new Map<string, WordKey>();
  for (const form of forms.keys()) keys.set(form, { key: form, lemma: null });
  if (!lang || !forms.size) return keys;
  const formOfSpelling = new Map<string, string>();
  for (const [form, spellings] of forms) for (const spelling of spellings) formOfSpelling.set(spelling, form);
  const spellings = [...formOfSpelling.keys()];
  const primary = primaryTag(lang);
  const lemmas = new Map<string, Set<string>>();
  for (let at = 0; at < spellings.length; at += PER_QUERY) {
    const batch = spellings.slice(at, at + PER_QUERY);
    const rows = await sql<Array<{ form: string; lemma: string }>>(
      db,
      'SELECT DISTINCT f.form AS form, f.lemma AS lemma FROM word_forms f' +
        ' JOIN word_form_sets s ON s.lang = f.lang AND s.origin = f.origin AND s.generation = f.generation' +
        ' WHERE f.lang IN (SELECT ws.lang FROM word_form_sets ws WHERE ws.lang = ? OR ws.lang LIKE ?)' +
        ` AND f.form IN (${batch.map(() => '?').join(', ')})`,
      [primary, `${primary}-%`, ...batch],
    );
    for (const row of rows) {
      const form = formOfSpelling.get(String(row.form));
      if (!form) continue;
      const found = lemmas.get(form) ?? new Set<string>();
      found.add(formOf(String(row.lemma), lang));
      lemmas.set(form, found);
    }
  }
  for (const [form, found] of lemmas) {
    const [lemma] = found;
    if (found.size === 1 && lemma.length <= MAX_FORM) keys.set(form, { key: lemma, lemma });
    // Two lemmas or more: the form's own key, apart from every lemma's ("casa" may be casar's too, so
    // knowing "casitas", whose only lemma is casa, does not make the form "casa" known).
    else if (found.size > 1) keys.set(form, { key: `${AMBIGUOUS}${form}`, lemma: null });
  }
  return keys;
}
