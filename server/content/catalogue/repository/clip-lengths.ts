import type { DataSource } from 'typeorm';
import { changedRows, sql } from '../../../platform/database/sql';
import { lockChapter } from './chapter-lock';
import { measureChapter } from './chapter-length';

/**
 * A clip's length in the rows is its decoded length in whole milliseconds (docs/formats.md "Exact
 * lengths"), kept by the formats in `audio_measures` (`media:<key>`, microseconds). Rows written before
 * that rule, or by an import or an upload that could not decode at once, carry the container's figure
 * until MeasureAhead measures their clips and puts the decoded length here.
 */

/** Keys per IN list: well under SQLite's 999 and PostgreSQL's 65,535 bound values. */
const KEYS_PER_QUERY = 500;

/**
 * A row's length (`ms` column) disagrees with its clip's (`key` column) kept decoded length, or the clip has
 * none kept: `(us + 500) / 1000` in integers is Math.round(us / 1000) on both databases.
 */
const unmeasured = (key: string, ms: string) =>
  `NOT EXISTS (SELECT 1 FROM audio_measures m WHERE m.audio_key = 'media:' || ${key}
     AND ${ms} IS NOT NULL AND ${ms} = (m.decoded_us + 500) / 1000)`;

/** The codes of books with a clip or sample whose length is not (yet) its decoded one. */
export async function booksWithUnmeasuredClips(db: DataSource): Promise<string[]> {
  const rows = await sql<Array<{ code: string }>>(
    db,
    `SELECT b.book_code AS code FROM books b
     WHERE ${unmeasured('b.sample_audio_path', 'b.sample_audio_ms')}
        OR EXISTS (SELECT 1 FROM chapters c JOIN phrases p ON p.chapter_id = c.id
                   WHERE c.book_id = b.id AND ${unmeasured('p.audio_path', 'p.audio_ms')})
     ORDER BY b.id`,
  );
  return rows.map((row) => row.code);
}

/**
 * Puts decoded lengths (clip key → ms) on the phrases using those clips, where they differ, and measures
 * their chapters again, each chapter under its lock in a transaction of its own. A phrase whose clip was
 * replaced meanwhile is left alone (its new clip's length came with it). Answers whether a row changed.
 */
export async function setPhraseLengths(
  db: DataSource,
  lengths: ReadonlyMap<string, number>,
): Promise<boolean> {
  const keys = [...lengths.keys()];
  const byChapter = new Map<number, Array<{ id: number; key: string; ms: number }>>();
  for (let at = 0; at < keys.length; at += KEYS_PER_QUERY) {
    const chunk = keys.slice(at, at + KEYS_PER_QUERY);
    const rows = await sql<
      Array<{ id: number; chapter_id: number; audio_path: string; audio_ms: number | null }>
    >(
      db,
      `SELECT id, chapter_id, audio_path, audio_ms FROM phrases WHERE audio_path IN (${chunk.map(() => '?').join(', ')})`,
      chunk,
    );
    for (const row of rows) {
      const ms = lengths.get(row.audio_path)!;
      if (row.audio_ms !== null && Number(row.audio_ms) === ms) continue;
      const chapterId = Number(row.chapter_id);
      byChapter.set(chapterId, [
        ...(byChapter.get(chapterId) ?? []),
        { id: Number(row.id), key: row.audio_path, ms },
      ]);
    }
  }
  let changed = false;
  for (const [chapterId, rows] of byChapter)
    await db.transaction(async (tx) => {
      await lockChapter(tx, chapterId);
      let here = 0;
      // updated_at stays: the clip is the same, only its measure is exact now.
      for (const row of rows)
        here += await changedRows(tx, `UPDATE phrases SET audio_ms = ? WHERE id = ? AND audio_path = ?`, [
          row.ms,
          row.id,
          row.key,
        ]);
      if (here) await measureChapter(tx, chapterId);
      changed ||= here > 0;
    });
  return changed;
}

/** Puts a sample's decoded length on its book, unless the sample was replaced meanwhile; answers whether it changed. */
export async function setSampleLength(
  db: DataSource,
  bookId: number,
  key: string,
  ms: number,
): Promise<boolean> {
  const changed = await changedRows(
    db,
    `UPDATE books SET sample_audio_ms = ?
     WHERE id = ? AND sample_audio_path = ? AND (sample_audio_ms IS NULL OR sample_audio_ms <> ?)`,
    [ms, bookId, key, ms],
  );
  return changed > 0;
}
