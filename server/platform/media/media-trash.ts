import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { MEDIA_STORE } from './store/create-stores';
import type { MediaStore } from './store/media-store';

/**
 * How long a replaced or deleted file is kept. A backup reads its database snapshot first and copies the
 * files it names after; for as long as this, a file the snapshot names is still there to copy.
 */
export const MEDIA_GRACE_MS = 3_600_000;
const PURGE_EVERY_MS = 5 * 60_000;
const BATCH = 500;

/** Every media key rows point to (a cover's key stands for its sizes); a backup reads it from its snapshot. */
export const REFERENCED_MEDIA_SQL = `SELECT cover_path AS path FROM books UNION ALL SELECT sample_audio_path FROM books
  UNION ALL SELECT audio_path FROM phrases`;

export async function referencedMedia(db: DataSource): Promise<string[]> {
  const rows: Array<{ path: string | null }> = await db.query(REFERENCED_MEDIA_SQL);
  return rows.flatMap((row) => (row.path ? [row.path] : []));
}

/**
 * Media let go of by a replace or a delete (table media_trash), deleted for good once it is an hour old:
 * every few minutes and at boot, on every instance (each purge takes only what is due, and deleting a
 * missing object is fine). A key that a row points to again is dropped from the trash, never deleted.
 */
@Injectable()
export class MediaTrash implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(MediaTrash.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: DataSource,
    @Inject(MEDIA_STORE) private readonly store: MediaStore,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(
      () => void this.purge().catch((error: unknown) => this.logger.error(error)),
      PURGE_EVERY_MS,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Records files (stored keys, one per file) as let go of at `now`; a key recorded twice keeps its first time. */
  async add(files: readonly string[], now = new Date()): Promise<void> {
    for (let i = 0; i < files.length; i += BATCH) {
      const batch = files.slice(i, i + BATCH);
      await sql(
        this.db,
        `INSERT INTO media_trash ("key", removed_at_ms) VALUES ${batch.map(() => '(?, ?)').join(', ')}
         ON CONFLICT ("key") DO NOTHING`,
        batch.flatMap((key) => [key, now.getTime()]),
      );
    }
  }

  /** The files still in their grace period (or due, but not yet purged): the boot sweep leaves them alone. */
  async keys(): Promise<string[]> {
    const rows = await sql<Array<{ key: string }>>(this.db, 'SELECT "key" FROM media_trash');
    return rows.map((row) => row.key);
  }

  /**
   * The files let go of that no row points to again: kept for backups, never served (the /media gate
   * answers 404 for them from the moment they are let go of). Costs nothing while the trash is empty.
   */
  async withdrawn(): Promise<string[]> {
    const keys = await this.keys();
    return keys.length ? this.notInUse(keys) : [];
  }

  /** Deletes the files let go of at least an hour before `now`; answers how many. */
  async purge(now = new Date()): Promise<number> {
    const due = await sql<Array<{ key: string }>>(
      this.db,
      'SELECT "key" FROM media_trash WHERE removed_at_ms <= ? ORDER BY removed_at_ms LIMIT 5000',
      [now.getTime() - MEDIA_GRACE_MS],
    );
    if (due.length === 0) return 0;
    const keys = due.map((row) => row.key);
    const doomed = await this.notInUse(keys);
    await this.store.delete(doomed);
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = keys.slice(i, i + BATCH);
      await sql(
        this.db,
        `DELETE FROM media_trash WHERE "key" IN (${batch.map(() => '?').join(', ')})`,
        batch,
      );
    }
    if (doomed.length > 0) this.logger.log(`Deleted ${doomed.length} replaced or deleted media file(s)`);
    return doomed.length;
  }

  private async notInUse(keys: string[]): Promise<string[]> {
    const inUse = new Set(await referencedMedia(this.db));
    return keys.filter((key) => !inUse.has(key) && !inUse.has(coverKeyOf(key)));
  }
}

/** `covers/<hex>-640.webp` belongs to the cover key `covers/<hex>`. */
export const coverKeyOf = (key: string) => key.replace(/^(covers\/[^/.]+)-\d+\.webp$/, '$1');
