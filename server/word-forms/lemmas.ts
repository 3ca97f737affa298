import type { DataSource, EntityManager } from 'typeorm';
import { sql } from '../database/sql';

/** Forms asked for in one query at most: well under SQLite's bound on parameters (999 on old builds). */
const FORMS_PER_QUERY = 500;

/**
 * The lemmas of each word, from the live generation of every origin of `lang` (docs/word-forms.md).
 * The match is exact (forms are stored as the dictionary spells them): a caller wanting "Casas" to find
 * "casas" asks for both. A form that is itself a stem maps to itself too ("casa" → casa, casar).
 * Lemmas of the irregular list come first (an administrator wrote them), then Hunspell's, each by name;
 * a word without any is absent from the map. One index range on (lang, form) per query.
 */
export async function lemmasOf(
  db: DataSource | EntityManager,
  lang: string,
  words: readonly string[],
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const unique = [...new Set(words.filter((word) => typeof word === 'string' && word.length > 0))];
  for (let start = 0; start < unique.length; start += FORMS_PER_QUERY) {
    const chunk = unique.slice(start, start + FORMS_PER_QUERY);
    const rows = await sql<Array<{ form: string; lemma: string }>>(
      db,
      `SELECT f.form AS form, f.lemma AS lemma
         FROM word_forms f
         JOIN word_form_sets s ON s.lang = f.lang AND s.origin = f.origin AND s.generation = f.generation
        WHERE f.lang = ? AND f.form IN (${chunk.map(() => '?').join(', ')})
        ORDER BY f.form, CASE f.origin WHEN 'list' THEN 0 ELSE 1 END, f.lemma`,
      [lang, ...chunk],
    );
    for (const { form, lemma } of rows) {
      const lemmas = found.get(form) ?? [];
      if (!lemmas.includes(lemma)) lemmas.push(lemma);
      found.set(form, lemmas);
    }
  }
  return found;
}
