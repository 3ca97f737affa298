import { mkdtemp, copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { filesOf } from '../media/media-urls';
import { referencedMedia } from '../media/media-trash';
import type { MediaStore } from '../media/store/media-store';
import { sql } from './sql';

/**
 * The tables an installation's data lives in, parents before children (foreign keys). Left out on
 * purpose: `migrations` (the target runs its own), `rate_hits` (minutes-long counters), `imports`
 * (staged imports live a day; their files stay behind in STORAGE_DIR/imports), `media_trash` (files let
 * go of within the hour: copyMedia leaves them behind, see abandonedMedia), `book_words` (the search's
 * words, derived from the books: the catalogue's owner rebuilds them, fillBookWords, rather than this
 * copy paging through the largest table, docs/catalogue.md "Search"), and `audio_measures` and
 * `audiobook_builds` (derived from the media and rebuilt on demand, docs/formats.md).
 */
export const COPIED_TABLES = [
  'users',
  'books',
  'chapters',
  'phrases',
  'phrase_translations',
  'app_meta',
  'password_reset_tokens',
  'subscriptions',
  'stripe_events',
  'reading_progress',
  'saved_words',
  'review_logs',
  'word_trash',
  'listening_events',
  'dictation_attempts',
  'phrase_marks',
  'app_passwords',
  'dictionaries',
  'dictionary_entries',
  'word_form_sets',
  'word_forms',
  'chapter_words',
  'word_status_batches',
  'word_statuses',
  'fsrs_parameters',
  'appearance',
] as const;
const NOT_COPIED = new Set([
  'migrations',
  'rate_hits',
  'imports',
  'media_trash',
  'book_words',
  // Derived from the statuses and the books, computed again on the target (coverage-refresher.ts).
  'book_coverage',
  'coverage_runs',
  // Derived from the media (docs/formats.md): measured and built again on the target when first asked.
  'audio_measures',
  'audiobook_builds',
]);
/** Tables whose `id` the database numbers: their sequences must be moved past the copied ids. */
const NUMBERED = new Set(
  COPIED_TABLES.filter(
    (table) =>
      ![
        'app_meta',
        'stripe_events',
        'subscriptions',
        'word_trash',
        'phrase_marks',
        'word_form_sets',
        'chapter_words',
        'word_statuses',
        'fsrs_parameters',
        'appearance',
      ].includes(table),
  ),
);
const BATCH = 500;

export class CopyRefused extends Error {}

export interface CopyReport {
  rows: Record<string, number>;
  mediaFiles: number;
}

async function sourceTables(source: DataSource): Promise<string[]> {
  const rows = await source.query<Array<{ name: string }>>(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
  );
  return rows.map((row) => row.name);
}

async function count(db: DataSource, table: string): Promise<number> {
  const [row] = await db.query<Array<{ n: number | string }>>(`SELECT COUNT(*) AS n FROM "${table}"`);
  return Number(row.n);
}

/**
 * The highest id a table ever handed out: AUTOINCREMENT's high-water mark (sqlite_sequence), which counts
 * deleted rows too, or the highest id left. Ids of deleted rows must stay unused after the move as before
 * it: a word waiting in word_trash gets its id back on Undo.
 */
async function highestId(source: DataSource, table: string): Promise<number> {
  const [mark] = await source.query<Array<{ seq: number | null }>>(
    `SELECT seq FROM sqlite_sequence WHERE name = ?`,
    [table],
  );
  const [left] = await source.query<Array<{ id: number | null }>>(`SELECT MAX(id) AS id FROM "${table}"`);
  return Math.max(Number(mark?.seq ?? 0), Number(left?.id ?? 0));
}

/**
 * Copies a SQLite installation's rows into an empty, migrated PostgreSQL database, in one transaction
 * (all or nothing), then moves each sequence past the highest id the source ever handed out: copied ids
 * would otherwise collide with the next insert.
 */
export async function copyRows(source: DataSource, target: DataSource): Promise<Record<string, number>> {
  const unknown = (await sourceTables(source)).filter(
    (table) => !NOT_COPIED.has(table) && !(COPIED_TABLES as readonly string[]).includes(table),
  );
  // A table added by a later migration and not listed here would be silently left behind.
  if (unknown.length) throw new Error(`Tables this tool does not know how to copy: ${unknown.join(', ')}`);
  for (const table of ['users', 'books'])
    if ((await count(target, table)) > 0)
      throw new CopyRefused(
        `The target database already holds data (table ${table} is not empty); use an empty database.`,
      );
  const copied: Record<string, number> = {};
  await target.transaction(async (tx) => {
    // SQLite keeps times as UTC text without a zone; read them as UTC, whatever the server's own zone.
    await tx.query(`SET LOCAL TIME ZONE 'UTC'`);
    // A target that has booted once holds its own generated secret: the installation's own replaces it.
    await tx.query(`DELETE FROM "app_meta"`);
    for (const table of COPIED_TABLES) {
      copied[table] = 0;
      for (let offset = 0; ; offset += BATCH) {
        const rows = await source.query<Array<Record<string, unknown>>>(
          `SELECT * FROM "${table}" ORDER BY rowid LIMIT ? OFFSET ?`,
          [BATCH, offset],
        );
        if (!rows.length) break;
        const columns = Object.keys(rows[0]);
        const values = rows.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
        await sql(
          tx,
          `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${values}`,
          rows.flatMap((row) => columns.map((column) => row[column])),
        );
        copied[table] += rows.length;
        if (rows.length < BATCH) break;
      }
      const next = NUMBERED.has(table) ? await highestId(source, table) : 0;
      if (next > 0)
        await tx.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), $2)`, [`"${table}"`, next]);
    }
  });
  return copied;
}

/**
 * Replaced and deleted files waiting in media_trash that no row points to (again): the source's purge
 * would delete them within the hour, but the trash is not copied, so in the bucket nothing would know
 * them. They are not moved.
 */
export async function abandonedMedia(source: DataSource): Promise<Set<string>> {
  const inUse = new Set((await referencedMedia(source)).flatMap(filesOf));
  const trashed = await source.query<Array<{ key: string }>>('SELECT "key" FROM media_trash');
  return new Set(trashed.map((row) => row.key).filter((key) => !inUse.has(key)));
}

/**
 * Copies every media file but the `skipped` ones into the target store; a file already there with the
 * same size is not copied again.
 */
export async function copyMedia(
  source: MediaStore,
  target: MediaStore,
  tempRoot: string,
  skipped: ReadonlySet<string> = new Set(),
): Promise<number> {
  const temp = await mkdtemp(join(tempRoot, 'migrate-'));
  let copied = 0;
  try {
    for (const { key } of await source.list('')) {
      if (skipped.has(key)) continue;
      const [from, already] = [await source.head(key), await target.head(key)];
      if (from && already && from.size === already.size) continue;
      const file = join(temp, String(copied));
      const local = await source.localCopy(key);
      try {
        await copyFile(local.path, file);
      } finally {
        await local.release();
      }
      await target.put(key, file);
      copied++;
    }
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  return copied;
}
