import Database from 'better-sqlite3';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { DATABASE_FILE } from '../platform/database/data-source';
import { REFERENCED_MEDIA_SQL } from '../platform/media/media-trash';
import { BackupError, PG_DUMP_ENTRY, SQLITE_ENTRY, type Engine } from './archive-format';
import { pgDump } from './pg-tools';

/** What a backup learns from its database snapshot, never from the live database. */
export interface Snapshot {
  engine: Engine;
  /** The local file holding the copy (SQLite) or the dump (PostgreSQL), and its name in the archive. */
  file: string;
  entry: string;
  migration: string;
  applied: number;
  /** Keys rows point to (a cover's key stands for its sizes). */
  mediaPaths: string[];
  secretInDatabase: boolean;
}

/**
 * Made empty and 0600 before SQLite or pg_dump write into it (both keep an existing file's mode), so the
 * copy of password hashes and the session secret is never readable by others, even for a moment.
 */
function createPrivateFile(file: string): void {
  writeFileSync(file, '', { mode: 0o600, flag: 'wx' });
}

type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

async function readFacts(query: Query): Promise<Omit<Snapshot, 'engine' | 'file' | 'entry'>> {
  const migrations = await query('SELECT name FROM migrations ORDER BY timestamp, id');
  if (migrations.length === 0)
    throw new BackupError('The database has no migrations applied: nothing to back up.');
  const media = await query(REFERENCED_MEDIA_SQL);
  const secret = await query(`SELECT 1 AS found FROM app_meta WHERE "key" = 'jwt_secret'`);
  return {
    migration: String(migrations[migrations.length - 1].name),
    applied: migrations.length,
    mediaPaths: media.flatMap((row) => (typeof row.path === 'string' && row.path ? [row.path] : [])),
    secretInDatabase: secret.length > 0,
  };
}

/** SQLite copies every page in one step: a step that overlapped a write would start the copy over. */
const ALL_PAGES = 0x7fffffff;

/**
 * SQLite's online backup API, on a connection of our own beside the server's (WAL lets it read while the
 * server writes; no instance lock is taken). The copy is a consistent database as of one moment; it is
 * switched out of WAL, so it is one self-contained file, and checked before anything is read from it.
 */
export async function snapshotSqlite(storageDir: string, workDir: string): Promise<Snapshot> {
  const source = join(storageDir, DATABASE_FILE);
  if (!existsSync(source))
    throw new BackupError(
      `There is no database at ${source}: is STORAGE_DIR set to the installation's folder?`,
    );
  const file = join(workDir, DATABASE_FILE);
  createPrivateFile(file);
  const live = new Database(source, { fileMustExist: true, timeout: 5000 });
  try {
    await live.backup(file, { progress: () => ALL_PAGES });
  } finally {
    live.close();
  }
  const copy = new Database(file);
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok')
      throw new BackupError(`The database copy failed its integrity check: ${String(check)}`);
    const facts = await readFacts((text) =>
      Promise.resolve(copy.prepare(text).all() as Array<Record<string, unknown>>),
    );
    return { engine: 'sqlite', file, entry: SQLITE_ENTRY, ...facts };
  } finally {
    copy.close();
  }
}

/**
 * pg_dump of one exported snapshot: a REPEATABLE READ transaction exports it, reads the media keys and the
 * schema version in it, and stays open while pg_dump (`--snapshot`) dumps exactly the same state.
 */
export async function snapshotPostgres(databaseUrl: string, workDir: string): Promise<Snapshot> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
    const facts = await readFacts(
      async (text) => (await client.query(text)).rows as Array<Record<string, unknown>>,
    );
    const file = join(workDir, 'lingonovel.pgdump');
    createPrivateFile(file);
    await pgDump(databaseUrl, rows[0].id, file);
    await client.query('COMMIT');
    return { engine: 'postgres', file, entry: PG_DUMP_ENTRY, ...facts };
  } finally {
    await client.end();
  }
}
