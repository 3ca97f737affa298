import type { DataSource, EntityManager } from 'typeorm';
import type { Book } from '../entities/book.entity';
import { sql } from '../../../platform/database/sql';
import { searchWords } from '../search-key';

/** The fields a book is searched by. */
export type SearchedFields = Pick<Book, 'title' | 'author' | 'narratedBy' | 'description'>;

/**
 * The words a book is found by (book_words, docs/catalogue.md "Search"): the distinct words of its title,
 * author, narrator and description, as the search normalises them (content/catalogue/search-key.ts).
 */
export function wordsOfBook(book: SearchedFields): string[] {
  return searchWords([book.title, book.author, book.narratedBy, book.description].join(' '));
}

/** Rows per INSERT: 1,000 parameters, well under either database's limit. */
const ROWS_PER_INSERT = 500;

async function insertWords(tx: EntityManager, rows: Array<[number, string]>): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_INSERT);
    await sql(
      tx,
      `INSERT INTO book_words (book_id, word) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
      chunk.flat(),
    );
  }
}

/**
 * Replaces a book's words, in the transaction that writes its fields (so a search never sees a book
 * with another version's words). The caller holds the book's row: it has just inserted or updated it.
 */
export async function writeBookWords(tx: EntityManager, bookId: number, book: SearchedFields): Promise<void> {
  await sql(tx, 'DELETE FROM book_words WHERE book_id = ?', [bookId]);
  const rows = wordsOfBook(book).map((word): [number, string] => [bookId, word]);
  await insertWords(tx, rows);
}

/** Books whose words are written per step of the backfill: one transaction, a few statements. */
const FILL_STEP = 200;

interface BookText {
  id: number | string;
  title: string;
  author: string;
  narrated_by: string;
  description: string;
}

/**
 * Writes the words of every book that has none: books kept before book_words existed, a database copied
 * by `npm run migrate-to` (which rebuilds them rather than copying them), a book created by an older
 * version during a rolling upgrade. In id order, FILL_STEP books a transaction, so each book is looked
 * at once per call, a book without any word too (a title and author of punctuation alone). Each step
 * reads the books under a row lock on PostgreSQL and skips those that got words meanwhile: another
 * instance booting at the same moment, or an edit, never leaves a book with two sets of words, and a
 * book deleted meanwhile is not read. Answers how many words it wrote.
 */
export async function fillBookWords(db: DataSource): Promise<number> {
  let written = 0;
  for (let after = 0; ;) {
    const ids = (
      await sql<Array<{ id: number | string }>>(
        db,
        `SELECT b.id FROM books b
         WHERE b.id > ? AND NOT EXISTS (SELECT 1 FROM book_words w WHERE w.book_id = b.id)
         ORDER BY b.id LIMIT ?`,
        [after, FILL_STEP],
      )
    ).map((row) => Number(row.id));
    if (!ids.length) return written;
    after = ids[ids.length - 1];
    written += await db.transaction(async (tx) => {
      const list = ids.map(() => '?').join(', ');
      const lock = tx.connection.options.type === 'postgres' ? ' FOR NO KEY UPDATE' : '';
      const books = await sql<BookText[]>(
        tx,
        `SELECT id, title, author, narrated_by, description FROM books WHERE id IN (${list}) ORDER BY id${lock}`,
        ids,
      );
      const done = await sql<Array<{ book_id: number | string }>>(
        tx,
        `SELECT DISTINCT book_id FROM book_words WHERE book_id IN (${list})`,
        ids,
      );
      const skipped = new Set(done.map((row) => Number(row.book_id)));
      const rows = books
        .filter((book) => !skipped.has(Number(book.id)))
        .flatMap((book) =>
          wordsOfBook({ ...book, narratedBy: book.narrated_by }).map((word): [number, string] => [
            Number(book.id),
            word,
          ]),
        );
      await insertWords(tx, rows);
      return rows.length;
    });
    if (ids.length < FILL_STEP) return written;
  }
}
