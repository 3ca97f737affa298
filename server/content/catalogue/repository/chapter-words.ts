import type { DataSource, EntityManager } from 'typeorm';
import { primaryTag } from '../../../platform/common/language-tags';
import { countForms } from '../../../platform/common/running-words';
import { letOthersIn, sql } from '../../../platform/database/sql';
import { wordKeys } from '../../word-forms/word-keys';
import { lockChapter } from './chapter-lock';

/** Rows per INSERT: 5 values each, well under SQLite's 999 bound values. */
const ROWS_PER_INSERT = 150;

/**
 * Counts a chapter's running words again once its phrases changed (docs/word-status.md, "Coverage"):
 * each form with its count and key (word-keys.ts), in `chapter_words`. Run in the transaction that
 * changed the phrases, after it took the chapter's lock (chapter-lock.ts), as measureChapter is; a book's
 * counts are the sum over its chapters.
 */
export async function countChapterWords(
  tx: EntityManager,
  chapterId: number,
  { carryStatuses = false } = {},
): Promise<void> {
  const [chapter] = await sql<Array<{ book_id: number | string; language: string | null }>>(
    tx,
    'SELECT c.book_id AS book_id, b.language AS language FROM chapters c JOIN books b ON b.id = c.book_id WHERE c.id = ?',
    [chapterId],
  );
  const before = carryStatuses
    ? await sql<ChapterKey[]>(tx, 'SELECT form, word FROM chapter_words WHERE chapter_id = ?', [chapterId])
    : [];
  await sql(tx, 'DELETE FROM chapter_words WHERE chapter_id = ?', [chapterId]);
  if (!chapter) return;
  const lang = chapter.language ?? '';
  const phrases = await sql<Array<{ phrase: string }>>(
    tx,
    'SELECT phrase FROM phrases WHERE chapter_id = ?',
    [chapterId],
  );
  const forms = countForms(
    phrases.map((row) => row.phrase),
    lang,
  );
  const keys = await wordKeys(
    tx,
    lang,
    new Map([...forms].map(([form, { spellings }]) => [form, spellings])),
  );
  const rows = [...forms].map(([form, { count }]) => [
    chapterId,
    form,
    Number(chapter.book_id),
    keys.get(form)!.key,
    count,
  ]);
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
    const batch = rows.slice(at, at + ROWS_PER_INSERT);
    await sql(
      tx,
      `INSERT INTO chapter_words (chapter_id, form, book_id, word, count) VALUES ${batch.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
      batch.flat(),
    );
  }
  const moved = before.flatMap(({ form, word }) => {
    const key = keys.get(String(form))?.key;
    return key && key !== String(word) ? [[String(word), key]] : [];
  });
  await carryStatusesTo(tx, primaryTag(lang), moved);
}

interface ChapterKey {
  form: string;
  word: string;
}

/** Key pairs per statement: two values each, with the language. */
const PAIRS_PER_CARRY = 200;

/**
 * A form's key changed (its language's word forms did: "perros" is now keyed by its lemma "perro"): every
 * member's status of the old key is given to the new one where they have none, so that a word they said
 * they know stays known (docs/word-status.md, "Freshness of keys"), in the same chapter marking if it
 * came from one (its undo takes both back). The old key keeps its status too: other forms may still be
 * keyed by it.
 */
async function carryStatusesTo(tx: EntityManager, lang: string, pairs: string[][]): Promise<void> {
  for (let at = 0; at < pairs.length; at += PAIRS_PER_CARRY) {
    const part = pairs.slice(at, at + PAIRS_PER_CARRY);
    await sql(
      tx,
      `INSERT INTO word_statuses (user_id, lang, word, status, batch_id, updated_at)
       SELECT s.user_id, s.lang, m.new_key, s.status, b.id, s.updated_at
         FROM word_statuses s
         LEFT JOIN word_status_batches b ON b.id = s.batch_id
         JOIN (${part.map(() => 'SELECT CAST(? AS varchar(100)) AS old_key, CAST(? AS varchar(100)) AS new_key').join(' UNION ALL ')}) m
           ON m.old_key = s.word
        WHERE s.lang = ?
       ON CONFLICT (user_id, lang, word) DO NOTHING`,
      [...part.flat(), lang],
    );
  }
}

/**
 * Counts every chapter of `bookIds` again, each in its own short transaction: after a book's language
 * changed, or a language's word forms did (their keys change).
 */
export async function recountBooks(
  db: DataSource,
  bookIds: number[],
  stop = () => false,
  options: { carryStatuses?: boolean } = {},
): Promise<number> {
  let chapters = 0;
  for (const bookId of bookIds) {
    const ids = await sql<Array<{ id: number | string }>>(db, 'SELECT id FROM chapters WHERE book_id = ?', [
      bookId,
    ]);
    for (const { id } of ids) {
      if (stop()) return chapters;
      const count = () =>
        db.transaction(async (tx) => {
          await lockChapter(tx, Number(id));
          await countChapterWords(tx, Number(id), options);
        });
      // Once more after a failure: a marking undone while its statuses were carried (its batch gone
      // meanwhile) fails the carry's foreign key, and the next try carries them without it.
      await count().catch(count);
      chapters++;
      await letOthersIn();
    }
  }
  return chapters;
}

/** Counts each chapter of a book again within `tx` (its language changed: so do its forms' keys). */
export async function countBookWords(tx: EntityManager, bookId: number): Promise<void> {
  const ids = await sql<Array<{ id: number | string }>>(
    tx,
    'SELECT id FROM chapters WHERE book_id = ? ORDER BY id',
    [bookId],
  );
  for (const { id } of ids) {
    await lockChapter(tx, Number(id));
    await countChapterWords(tx, Number(id));
  }
}

/** Chapters counted per step of the boot's fill. */
const FILL_PAGE = 200;

/**
 * Chapters whose phrases were never counted (kept before chapter_words existed) are counted here, at
 * boot, each in its own short transaction; answers how many. A chapter without words stays without rows
 * and costs one indexed probe at each boot.
 */
export async function fillChapterWords(db: DataSource): Promise<number> {
  let after = 0;
  let counted = 0;
  for (;;) {
    const page = await sql<Array<{ id: number | string }>>(
      db,
      `SELECT c.id AS id FROM chapters c WHERE c.id > ?
         AND EXISTS (SELECT 1 FROM phrases p WHERE p.chapter_id = c.id)
         AND NOT EXISTS (SELECT 1 FROM chapter_words w WHERE w.chapter_id = c.id)
       ORDER BY c.id LIMIT ${FILL_PAGE}`,
      [after],
    );
    for (const { id } of page) {
      await db.transaction(async (tx) => {
        await lockChapter(tx, Number(id));
        await countChapterWords(tx, Number(id));
      });
      counted++;
      await letOthersIn();
    }
    if (page.length < FILL_PAGE) return counted;
    after = Number(page[page.length - 1].id);
  }
}

/**
 * Counts again every chapter of the books in `lang` (its primary subtag), each in its own short
 * transaction: a language's word forms changed, so its forms' keys may have. Answers how many chapters.
 */
export async function recountLanguage(db: DataSource, lang: string, stop = () => false): Promise<number> {
  const primary = lang.split('-')[0].toLowerCase();
  const books = await sql<Array<{ id: number | string }>>(
    db,
    'SELECT id FROM books WHERE language = ? OR language LIKE ? ORDER BY id',
    [primary, `${primary}-%`],
  );
  return recountBooks(
    db,
    books.map((book) => Number(book.id)),
    stop,
    { carryStatuses: true },
  );
}
