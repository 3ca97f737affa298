import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { primaryTag } from '../../platform/common/language-tags';
import { sql } from '../../platform/database/sql';

/** A live dictionary, as a lookup needs it. */
export interface LiveDictionary {
  id: number;
  name: string;
  source: string;
  target: string;
  attribution: string | null;
}

/** One entry of a live dictionary. */
export interface FoundEntry {
  id: number;
  dictionaryId: number;
  headword: string;
  definition: string;
  pos: string | null;
}

type EntryRow = {
  id: number | string;
  dictionary_id: number | string;
  headword: string;
  definition: string;
  pos: string | null;
};

/** The most lemmas one form gives (Hunspell gives a handful at most), and entries one query reads. */
const MAX_LEMMAS = 20;
const MAX_ENTRIES = 100;

/** `?, ?, ?` for a list of parameters. */
const marks = (values: readonly unknown[]) => values.map(() => '?').join(', ');

const ENTRY_COLUMNS =
  'e.id AS id, e.dictionary_id AS dictionary_id, e.headword AS headword, e.definition AS definition, e.pos AS pos';

/**
 * The lookup's reads of the dictionaries and word forms, each one indexed query (docs/lookup.md, "Speed").
 * Only live generations count: an entry's generation must be its dictionary's (joined, so that a
 * replacement that swaps between two queries of one lookup never mixes two generations), a dictionary at
 * generation 0 is a first import not finished, and a form's generation must be its set's.
 */
@Injectable()
export class DictionaryEntries {
  constructor(private readonly db: DataSource) {}

  /**
   * The live dictionaries whose headwords are in `lang` (its primary subtag: an "es-MX" book uses an "es"
   * dictionary and an "es-ES" one), or all of them when `lang` is null; those of the very tag first, then
   * in the order they were added. The table holds a row per dictionary: reading it whole is cheap.
   */
  async fromLanguage(lang: string | null): Promise<LiveDictionary[]> {
    const rows = await sql<
      Array<{ id: number | string; name: string; source: string; target: string; attribution: string | null }>
    >(
      this.db,
      'SELECT id, name, source, target, attribution FROM dictionaries WHERE generation > 0 ORDER BY id',
    );
    const all = rows.map((row) => ({
      id: Number(row.id),
      name: String(row.name),
      source: String(row.source),
      target: String(row.target),
      attribution: row.attribution ?? null,
    }));
    if (lang === null) return all;
    const same = all.filter((d) => primaryTag(d.source) === primaryTag(lang));
    return [...same.filter((d) => d.source === lang), ...same.filter((d) => d.source !== lang)];
  }

  /**
   * The lemmas of any of `forms` in `lang`'s live word forms (any set whose language has `lang`'s primary
   * subtag), without repeats, in a stable order: one range of the (lang, form) index per form.
   */
  async lemmasOf(lang: string, forms: string[]): Promise<string[]> {
    if (!forms.length) return [];
    const primary = primaryTag(lang);
    const rows = await sql<Array<{ lemma: string }>>(
      this.db,
      'SELECT DISTINCT f.lemma AS lemma FROM word_forms f' +
        ' JOIN word_form_sets s ON s.lang = f.lang AND s.origin = f.origin AND s.generation = f.generation' +
        ' WHERE f.lang IN (SELECT ws.lang FROM word_form_sets ws WHERE ws.lang = ? OR ws.lang LIKE ?)' +
        // Ordered before the bound, so that a form with more lemmas than it keeps always keeps the same.
        ` AND f.form IN (${marks(forms)}) ORDER BY f.lemma LIMIT ${MAX_LEMMAS}`,
      [primary, `${primary}-%`, ...forms],
    );
    return rows.map((row) => String(row.lemma)).sort();
  }

  /** The live entries of these dictionaries whose headword is one of `headwords`, in file order. */
  byHeadwords(dictionaryIds: number[], headwords: string[]): Promise<FoundEntry[]> {
    if (!dictionaryIds.length || !headwords.length) return Promise.resolve([]);
    return this.entries(`e.headword IN (${marks(headwords)})`, dictionaryIds, headwords);
  }

  /** The live entries of these dictionaries whose case- and accent-folded headword is `folded`. */
  byFolded(dictionaryIds: number[], folded: string): Promise<FoundEntry[]> {
    if (!dictionaryIds.length) return Promise.resolve([]);
    return this.entries('e.folded = ?', dictionaryIds, [folded]);
  }

  private async entries(match: string, dictionaryIds: number[], params: string[]): Promise<FoundEntry[]> {
    const rows = await sql<EntryRow[]>(
      this.db,
      `SELECT ${ENTRY_COLUMNS} FROM dictionary_entries e` +
        ' JOIN dictionaries d ON d.id = e.dictionary_id AND d.generation = e.generation' +
        ` WHERE e.dictionary_id IN (${marks(dictionaryIds)}) AND ${match}` +
        // No ORDER BY: sorting here would tempt a planner to walk the primary key instead of the index.
        ` LIMIT ${MAX_ENTRIES}`,
      [...dictionaryIds, ...params],
    );
    const found = rows.map((row) => ({
      id: Number(row.id),
      dictionaryId: Number(row.dictionary_id),
      headword: String(row.headword),
      definition: String(row.definition),
      pos: row.pos ?? null,
    }));
    return found.sort((a, b) => a.id - b.id);
  }
}
