import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { sql } from '../../../platform/database/sql';
import { PhraseTranslation } from '../entities/phrase-translation.entity';

/** A phrase's translations: language tag (canonical BCP 47) to text. */
export type Translations = Record<string, string>;

/** One phrase's best translation for a reader's languages. */
export interface BestTranslation {
  language: string;
  text: string;
}

/**
 * Tags in one order on both databases (code units, as JavaScript sorts): the databases' collations differ,
 * and the page cache's keys (content/catalogue/translation-index.ts) sort the same way.
 */
export const byTag = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const sortedSet = (entries: Array<[string, string]>): Translations =>
  Object.fromEntries(entries.sort(([a], [b]) => byTag(a, b)));

/**
 * Ids bound per statement: well under SQLite's (32,766) and PostgreSQL's (65,535) limits on bound values,
 * so a long list is still one query in practice and never an error.
 */
const IDS_PER_QUERY = 5000;
/** Rows inserted per statement (3 values each). */
const ROWS_PER_INSERT = 300;

/**
 * Phrases' translations (docs/practice.md, "Translations"): the only writer of `phrase_translations`, and
 * where other modules read them. Rows go with their phrase (the foreign key cascades), and a phrase's set is
 * always replaced whole, within the transaction that writes the phrase.
 */
@Injectable()
export class PhraseTranslationsRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * For each phrase, its translation in the first of `languages` (preference order) that it has; phrases
   * with none of them are left out. One query.
   */
  async bestFor(phraseIds: number[], languages: string[]): Promise<Map<number, BestTranslation>> {
    const best = new Map<number, BestTranslation>();
    if (!phraseIds.length || !languages.length) return best;
    const rank = new Map(languages.map((language, i) => [language, i]));
    for (const row of await this.rows(phraseIds, languages)) {
      const current = best.get(row.phrase_id);
      if (!current || rank.get(row.language)! < rank.get(current.language)!)
        best.set(row.phrase_id, { language: row.language, text: row.text });
    }
    return best;
  }

  /**
   * Each phrase's translations, limited to `languages` when given; a phrase without any is left out.
   * One query.
   */
  async ofPhrases(phraseIds: number[], languages?: string[]): Promise<Map<number, Translations>> {
    const found = new Map<number, Translations>();
    if (!phraseIds.length || (languages && !languages.length)) return found;
    const rows = await this.rows(phraseIds, languages);
    rows.sort((a, b) => byTag(a.language, b.language));
    for (const row of rows) {
      const set = found.get(row.phrase_id) ?? {};
      set[row.language] = row.text;
      found.set(row.phrase_id, set);
    }
    return found;
  }

  /** One phrase's translations (`{}` when none). */
  async ofPhrase(phraseId: number, tx: EntityManager = this.db.manager): Promise<Translations> {
    const rows = await tx.find(PhraseTranslation, { where: { phraseId } });
    return sortedSet(rows.map((row) => [row.language, row.text]));
  }

  /** Every language a chapter's phrases have, sorted. */
  async languagesOfChapter(chapterId: number): Promise<string[]> {
    const rows = await sql<Array<{ language: string }>>(
      this.db,
      `SELECT DISTINCT t.language AS language FROM phrase_translations t
         JOIN phrases p ON p.id = t.phrase_id
        WHERE p.chapter_id = ?`,
      [chapterId],
    );
    return rows.map((row) => row.language).sort(byTag);
  }

  /**
   * The languages of each chapter that has translations, by book code then chapter number (as the reader's
   * URL names them), sorted: the languages index's query (content/catalogue/translation-index.ts). Only the books
   * named in `bookCodes` when given (a catalogue change names the books it touched), every book otherwise.
   */
  async languagesByBook(bookCodes?: string[]): Promise<Map<string, Map<string, string[]>>> {
    const byBook = new Map<string, Map<string, string[]>>();
    const read = async (codes?: string[]) => {
      const rows = await sql<Array<{ book_code: string; chapter_no: number | string; language: string }>>(
        this.db,
        `SELECT DISTINCT b.book_code AS book_code, c.chapter_no AS chapter_no, t.language AS language
           FROM phrase_translations t
           JOIN phrases p ON p.id = t.phrase_id
           JOIN chapters c ON c.id = p.chapter_id
           JOIN books b ON b.id = c.book_id` +
          (codes ? ` WHERE b.book_code IN (${codes.map(() => '?').join(',')})` : ''),
        codes ?? [],
      );
      for (const row of rows) {
        const chapters = byBook.get(row.book_code) ?? new Map<string, string[]>();
        byBook.set(row.book_code, chapters);
        const chapterNo = String(Number(row.chapter_no));
        chapters.set(chapterNo, [...(chapters.get(chapterNo) ?? []), row.language]);
      }
    };
    if (!bookCodes) await read();
    else {
      const codes = [...new Set(bookCodes)];
      for (let at = 0; at < codes.length; at += IDS_PER_QUERY)
        await read(codes.slice(at, at + IDS_PER_QUERY));
    }
    for (const chapters of byBook.values()) for (const languages of chapters.values()) languages.sort(byTag);
    return byBook;
  }

  /**
   * Replaces the translations of each phrase listed in `sets` by the given ones (an empty set removes them
   * all). Within `tx`: the phrase write's transaction. Texts must be valid already (phrases.dto.ts).
   */
  async replace(sets: Map<number, Translations>, tx: EntityManager): Promise<void> {
    const ids = [...sets.keys()];
    for (let at = 0; at < ids.length; at += IDS_PER_QUERY) {
      const batch = ids.slice(at, at + IDS_PER_QUERY);
      await sql(
        tx,
        `DELETE FROM phrase_translations WHERE phrase_id IN (${batch.map(() => '?').join(',')})`,
        batch,
      );
    }
    const rows = [...sets].flatMap(([phraseId, set]) =>
      Object.entries(set).map(([language, text]) => ({ phraseId, language, text })),
    );
    for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
      await tx.insert(PhraseTranslation, rows.slice(at, at + ROWS_PER_INSERT));
    }
  }

  private async rows(
    phraseIds: number[],
    languages?: string[],
  ): Promise<Array<{ phrase_id: number; language: string; text: string }>> {
    const rows: Array<{ phrase_id: number; language: string; text: string }> = [];
    const ids = [...new Set(phraseIds)];
    for (let at = 0; at < ids.length; at += IDS_PER_QUERY) {
      const batch = ids.slice(at, at + IDS_PER_QUERY);
      const params: unknown[] = [...batch];
      let text = `SELECT phrase_id, language, text FROM phrase_translations
                   WHERE phrase_id IN (${batch.map(() => '?').join(',')})`;
      if (languages) {
        text += ` AND language IN (${languages.map(() => '?').join(',')})`;
        params.push(...languages);
      }
      const found = await sql<Array<{ phrase_id: number | string; language: string; text: string }>>(
        this.db,
        text,
        params,
      );
      rows.push(...found.map((row) => ({ ...row, phrase_id: Number(row.phrase_id) })));
    }
    return rows;
  }
}
