import type { DataSource } from 'typeorm';

/**
 * Which chapters are free: the first chapter of every book (the lowest chapter number, whatever it is) is
 * free to everyone; every other chapter is locked. The catalogue owns this rule. Whoever else needs it (the
 * reader's access rule in content/access/chapter-access.ts, saved words, listening reports, the clip gate) asks here: the
 * function for lists already loaded, the SQL fragment for queries, never a rule of their own.
 */

/** Whether a chapter is its book's free one, given the book's first chapter number. */
export function isFreeChapter(chapterNo: number, firstChapterNoOfBook: number | null | undefined): boolean {
  return (
    firstChapterNoOfBook !== null && firstChapterNoOfBook !== undefined && chapterNo === firstChapterNoOfBook
  );
}

/** The number of a book's free chapter among its chapters' numbers, or null for a book without chapters. */
export function firstChapterNo(chapterNos: Iterable<number>): number | null {
  let first: number | null = null;
  for (const no of chapterNos) if (first === null || no < first) first = no;
  return first;
}

/**
 * SQL (a scalar subquery) for the number of the free chapter of the book of the chapter aliased `alias`,
 * in column names, so it reads the same in a raw query and in a query builder (which leaves names it does
 * not know as they are). Portable: SQLite and PostgreSQL both take it, and the unique index on
 * (book_id, chapter_no) answers it. Compare with `isFreeChapter`; numbers come back as strings on
 * PostgreSQL.
 */
export function firstChapterNoSql(alias: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`Not an SQL alias: ${alias}`);
  return `(SELECT MIN(first_of_book.chapter_no) FROM chapters first_of_book WHERE first_of_book.book_id = ${alias}.book_id)`;
}

/** The same rule for a book row aliased `alias`: the number of its free chapter, null without chapters. */
export function freeChapterNoOfBookSql(alias: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`Not an SQL alias: ${alias}`);
  return `(SELECT MIN(first_of_book.chapter_no) FROM chapters first_of_book WHERE first_of_book.book_id = ${alias}.id)`;
}

/** Every clip of the catalogue, sorted by whether its chapter is free: what the clip gate needs, in one query. */
export async function clipsByAccess(db: DataSource): Promise<{ free: string[]; locked: string[] }> {
  const rows: Array<{ path: string; chapter_no: number | string; first_chapter_no: number | string }> =
    await db.query(
      `SELECT p.audio_path AS path, c.chapter_no AS chapter_no, ${firstChapterNoSql('c')} AS first_chapter_no
       FROM phrases p JOIN chapters c ON c.id = p.chapter_id`,
    );
  const free: string[] = [];
  const locked: string[] = [];
  for (const row of rows)
    (isFreeChapter(Number(row.chapter_no), Number(row.first_chapter_no)) ? free : locked).push(row.path);
  return { free, locked };
}
