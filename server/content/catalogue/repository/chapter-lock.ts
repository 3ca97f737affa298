import type { EntityManager } from 'typeorm';

/**
 * Serialises the transactions that number a chapter's phrases (append at MAX(position) + 1, delete and
 * close the gap, reorder, import). PostgreSQL runs transactions side by side, so the chapter's row is
 * locked until this one ends; SQLite has one writer at a time and needs nothing. Taking the lock again in
 * the same transaction costs nothing, so every numbering method takes it itself and no caller can forget.
 */
export async function lockChapter(tx: EntityManager, chapterId: number): Promise<void> {
  if (tx.connection.options.type === 'postgres')
    await tx.query('SELECT id FROM chapters WHERE id = $1 FOR UPDATE', [chapterId]);
}
