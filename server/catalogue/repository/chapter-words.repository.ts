import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { sql } from '../../database/sql';

/** A form of a chapter, with its key (its lemma's or its own: word-keys.ts) and its count. */
export interface ChapterWord {
  form: string;
  word: string;
  count: number;
}

/** How much of a book a member knows: running words in all, those known, distinct keys not known. */
export interface BookCoverage {
  running: number;
  known: number;
  unknown: number;
}

/** Books per coverage query: with the member and the language, well under every bound on parameters. */
const BOOKS_PER_QUERY = 100;
/** Keys per coverage shift: each is bound three times, with the member, the language and the sign. */
const KEYS_PER_SHIFT = 250;

/**
 * Reads of the books' running words (chapter_words, written by chapter-words.ts in every phrase write):
 * a chapter's forms, and the coverage of books for a member (docs/word-status.md, "Coverage").
 */
@Injectable()
export class ChapterWordsRepository {
  constructor(private readonly db: DataSource) {}

  async ofChapter(chapterId: number): Promise<ChapterWord[]> {
    const rows = await sql<Array<{ form: string; word: string; count: number | string }>>(
      this.db,
      'SELECT form, word, count FROM chapter_words WHERE chapter_id = ? ORDER BY form',
      [chapterId],
    );
    return rows.map((row) => ({ form: String(row.form), word: String(row.word), count: Number(row.count) }));
  }

  /**
   * Each book's coverage for the member, its running words matched against the member's known words of
   * `lang` (the books' language, by its primary subtag); a book without counted words is left out.
   */
  async coverage(userId: number, lang: string, bookIds: number[]): Promise<Map<number, BookCoverage>> {
    const found = new Map<number, BookCoverage>();
    for (let at = 0; at < bookIds.length; at += BOOKS_PER_QUERY) {
      const batch = bookIds.slice(at, at + BOOKS_PER_QUERY);
      const rows = await sql<CoverageRow[]>(
        this.db,
        `SELECT w.book_id AS book_id, SUM(w.count) AS running,
                SUM(CASE WHEN s.word IS NULL THEN 0 ELSE w.count END) AS known,
                COUNT(DISTINCT CASE WHEN s.word IS NULL THEN w.word END) AS unknown
           FROM chapter_words w
           LEFT JOIN word_statuses s ON s.user_id = ? AND s.lang = ? AND s.word = w.word AND s.status = 'known'
          WHERE w.book_id IN (${batch.map(() => '?').join(', ')})
          GROUP BY w.book_id`,
        [userId, lang, ...batch],
      );
      for (const row of rows) found.set(Number(row.book_id), coverageOf(row));
    }
    return found;
  }

  /** The member's precomputed coverage of books (book_coverage), as refreshCoverage and shiftCoverage keep it. */
  async storedCoverage(userId: number, bookIds: number[]): Promise<Map<number, BookCoverage>> {
    const found = new Map<number, BookCoverage>();
    for (let at = 0; at < bookIds.length; at += BOOKS_PER_QUERY) {
      const batch = bookIds.slice(at, at + BOOKS_PER_QUERY);
      const rows = await sql<CoverageRow[]>(
        this.db,
        `SELECT book_id, running, known, unknown FROM book_coverage
          WHERE user_id = ? AND book_id IN (${batch.map(() => '?').join(', ')})`,
        [userId, ...batch],
      );
      for (const row of rows) found.set(Number(row.book_id), coverageOf(row));
    }
    return found;
  }

  /**
   * Computes again a member's coverage of every book in `lang` (its primary subtag): one grouped query over
   * the language's counted words and the member's known words, in a transaction that replaces the
   * member's rows of the language.
   */
  async refreshCoverage(userId: number, lang: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      // The language's rows, and any of a book now in the language (it changed language since).
      await sql(
        tx,
        `DELETE FROM book_coverage WHERE user_id = ?
           AND (lang = ? OR book_id IN (SELECT id FROM books WHERE language = ? OR language LIKE ?))`,
        [userId, lang, lang, `${lang}-%`],
      );
      await sql(
        tx,
        `INSERT INTO book_coverage (user_id, book_id, lang, running, known, unknown)
         SELECT ?, w.book_id, ?, SUM(w.count), SUM(CASE WHEN s.word IS NULL THEN 0 ELSE w.count END),
                COUNT(DISTINCT CASE WHEN s.word IS NULL THEN w.word END)
           FROM chapter_words w
           JOIN books b ON b.id = w.book_id
           LEFT JOIN word_statuses s ON s.user_id = ? AND s.lang = ? AND s.word = w.word AND s.status = 'known'
          WHERE b.language = ? OR b.language LIKE ?
          GROUP BY w.book_id`,
        [userId, lang, userId, lang, lang, `${lang}-%`],
      );
    });
  }

  /**
   * Keeps a member's precomputed coverage of `lang` exact when `keys` became known (`sign` 1) or stopped
   * being known (-1), within the transaction that changed them: each book holding any of them gains (or
   * loses) their running words and loses (or gains) as many unknown keys. Only the books holding a key are
   * written. The member's rows must be complete (their run computed since the last change).
   */
  async shiftCoverage(
    tx: EntityManager,
    userId: number,
    lang: string,
    keys: string[],
    sign: 1 | -1,
  ): Promise<void> {
    for (let at = 0; at < keys.length; at += KEYS_PER_SHIFT) {
      const part = keys.slice(at, at + KEYS_PER_SHIFT);
      const list = part.map(() => '?').join(', ');
      await sql(
        tx,
        `UPDATE book_coverage SET
           known = known + ? * (SELECT COALESCE(SUM(w.count), 0) FROM chapter_words w
                                  WHERE w.book_id = book_coverage.book_id AND w.word IN (${list})),
           unknown = unknown - ? * (SELECT COUNT(DISTINCT w.word) FROM chapter_words w
                                      WHERE w.book_id = book_coverage.book_id AND w.word IN (${list}))
         WHERE user_id = ? AND lang = ? AND book_id IN (SELECT w.book_id FROM chapter_words w WHERE w.word IN (${list}))`,
        [sign, ...part, sign, ...part, userId, lang, ...part],
      );
    }
  }
}

interface CoverageRow {
  book_id: number | string;
  running: number | string;
  known: number | string;
  unknown: number | string;
}

const coverageOf = (row: CoverageRow): BookCoverage => ({
  running: Number(row.running),
  known: Number(row.known),
  unknown: Number(row.unknown),
});
