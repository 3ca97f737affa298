import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { letOthersIn, sql } from '../../../platform/database/sql';

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
      const rows = await sql<CoverageRow[]>(this.db, coverageOfBooks(batch.length), [userId, lang, ...batch]);
      for (const row of rows) found.set(Number(row.book_id), coverageOf(row));
    }
    return found;
  }

  /** The member's precomputed coverage of books (book_coverage), as refreshCoverage and shiftCoverage keep it. */
  async storedCoverage(userId: number, lang: string, bookIds: number[]): Promise<Map<number, BookCoverage>> {
    const found = new Map<number, BookCoverage>();
    for (let at = 0; at < bookIds.length; at += BOOKS_PER_QUERY) {
      const batch = bookIds.slice(at, at + BOOKS_PER_QUERY);
      const rows = await sql<CoverageRow[]>(
        this.db,
        `SELECT book_id, running, known, unknown FROM book_coverage
          WHERE user_id = ? AND lang = ? AND book_id IN (${marks(batch.length)})`,
        [userId, lang, ...batch],
      );
      for (const row of rows) found.set(Number(row.book_id), coverageOf(row));
    }
    return found;
  }

  /**
   * Computes again a member's coverage of every book in `lang` (its primary subtag): a grouped query over
   * the counted words of BOOKS_PER_QUERY books at a time and the member's known words, each replacing the
   * member's rows of those books in a short transaction, so that SQLite (whose queries hold the event loop)
   * answers other requests between them. The run stays due meanwhile (coverage-refresher.ts): statuses
   * changed during the computation have it computed again.
   */
  async refreshCoverage(userId: number, lang: string): Promise<void> {
    const inLanguage = 'SELECT id FROM books WHERE language = ? OR language LIKE ?';
    // Rows of a book no longer in the language (it changed language, or went) go.
    await sql(
      this.db,
      `DELETE FROM book_coverage WHERE user_id = ? AND lang = ? AND book_id NOT IN (${inLanguage})`,
      [userId, lang, lang, `${lang}-%`],
    );
    const books = await sql<Array<{ id: number | string }>>(this.db, `${inLanguage} ORDER BY id`, [
      lang,
      `${lang}-%`,
    ]);
    for (let at = 0; at < books.length; at += BOOKS_PER_QUERY) {
      const batch = books.slice(at, at + BOOKS_PER_QUERY).map((book) => Number(book.id));
      await this.db.transaction(async (tx) => {
        await sql(tx, `DELETE FROM book_coverage WHERE user_id = ? AND book_id IN (${marks(batch.length)})`, [
          userId,
          ...batch,
        ]);
        await sql(
          tx,
          `INSERT INTO book_coverage (user_id, book_id, lang, running, known, unknown)
           SELECT ?, c.book_id, ?, c.running, c.known, c.unknown FROM (${coverageOfBooks(batch.length)}) c`,
          [userId, lang, userId, lang, ...batch],
        );
      });
      await letOthersIn();
    }
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
      const list = marks(part.length);
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

const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/**
 * The coverage of `n` books (bound after the member and the language) for a member: their running words,
 * those whose key the member knows, and their distinct keys not known; a book without words has no row.
 */
const coverageOfBooks = (n: number): string =>
  `SELECT w.book_id AS book_id, SUM(w.count) AS running,
          SUM(CASE WHEN s.word IS NULL THEN 0 ELSE w.count END) AS known,
          COUNT(DISTINCT CASE WHEN s.word IS NULL THEN w.word END) AS unknown
     FROM chapter_words w
     LEFT JOIN word_statuses s ON s.user_id = ? AND s.lang = ? AND s.word = w.word AND s.status = 'known'
    WHERE w.book_id IN (${marks(n)})
    GROUP BY w.book_id`;

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
