import type { EntityManager } from 'typeorm';
import { sql } from '../../../platform/database/sql';

/**
 * Measures a chapter again once its phrases changed: `chapters.length_ms` is the sum of its clips'
 * durations (a clip of unknown length counts nothing). Run in the transaction that changed the phrases,
 * after it took the chapter's lock (chapter-lock.ts), so two writers never sum each other's half-work; a
 * book's length is then the sum over its chapters (book.entity.ts, bookClipsSql).
 */
export async function measureChapter(tx: EntityManager, chapterId: number): Promise<void> {
  await sql(
    tx,
    `UPDATE chapters SET length_ms = COALESCE((SELECT SUM(audio_ms) FROM phrases WHERE chapter_id = ?), 0)
     WHERE id = ?`,
    [chapterId, chapterId],
  );
}
