import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import type { AppConfig } from '../platform/config';
import { DATABASE_FILE } from '../platform/database/data-source';
import { InstanceLock, InstanceLockedError } from '../platform/database/instance-lock';
import { FORGET_STAGED_IMPORTS_SQL } from '../publishing/imports/import-lifecycle';
import { createStores } from '../platform/media/store/create-stores';
import { contentTypeOf, type MediaStore } from '../platform/media/store/media-store';
import { BackupError, MEDIA_PREFIX, PG_DUMP_ENTRY, SQLITE_ENTRY, type Manifest } from './archive-format';
import { BackupArchive } from './archive-reader';
import { pgCheckDump, pgRestore } from './pg-tools';

export interface RestoreOptions {
  /** Replace a database and media that are already there. */
  force?: boolean;
}

export interface RestoreReport {
  manifest: Manifest;
  mediaFiles: number;
  /** Media of the replaced installation that the archive does not have, deleted after the database swap. */
  removedMedia: number;
}

/**
 * Restores an archive into the configured STORAGE_DIR (SQLite) or DATABASE_URL (PostgreSQL) and media
 * store. In order, so that a failure or a crash never leaves a mix:
 * 1. the archive is checked (manifest, schema not newer than the code, engine, entry names) and the
 *    target must be empty unless `force`;
 * 2. every file is extracted to STORAGE_DIR/tmp and its SHA-256 checked: nothing is touched before;
 * 3. media is stored (keys are random, so adding them beside an old installation's files is harmless);
 * 4. the database is put in place, the step that makes the restore real: on SQLite one rename over the
 *    old file (checkpointed first, so no stale WAL is left to replay onto the new one); on PostgreSQL one
 *    pg_restore transaction (after, with `force`, the old tables are dropped);
 * 5. with `force`, the old media the archive does not have is deleted.
 * A crash before 4 leaves the old installation, with extra unreferenced files the boot sweep removes;
 * after 4, the restored one with all its media.
 */
export async function restoreBackup(
  config: AppConfig,
  path: string,
  options: RestoreOptions = {},
): Promise<RestoreReport> {
  const archive = await BackupArchive.open(path);
  let lock: InstanceLock | null = null;
  const staging = join(config.storageDir, 'tmp', `restore-${randomBytes(8).toString('hex')}`);
  try {
    const { manifest } = archive;
    const wanted = config.databaseUrl ? 'postgres' : 'sqlite';
    if (manifest.engine !== wanted)
      throw new BackupError(
        manifest.engine === 'sqlite'
          ? 'This archive holds a SQLite database, but DATABASE_URL is set. Restore it without DATABASE_URL, then move it with npm run migrate-to.'
          : 'This archive holds a PostgreSQL dump: set DATABASE_URL to an empty PostgreSQL database to restore it.',
      );
    // With SQLite the restore is the one process of its STORAGE_DIR: a server running there is refused.
    await mkdir(config.storageDir, { recursive: true });
    lock = takeLock(config);
    const store = createStores(config).media;
    const occupied = await occupants(config, store);
    if (occupied.length && !options.force)
      throw new BackupError(
        `Refusing to restore: ${occupied.join('; ')}. Restore into an empty STORAGE_DIR (or an empty ` +
          'database), or add --force to replace what is there.',
      );

    // The database entry must be the engine's own, and in the archive: nothing else is ever restored as one.
    const expected = manifest.engine === 'sqlite' ? SQLITE_ENTRY : PG_DUMP_ENTRY;
    if (manifest.database !== expected || !manifest.files.some((file) => file.name === expected))
      throw new BackupError(
        'The archive has no database of its engine: it is damaged. Nothing was restored.',
      );
    const staged = new Map<string, string>();
    for (const [i, file] of manifest.files.entries()) {
      const dest = join(staging, String(i));
      await archive.extract(file, dest);
      staged.set(file.name, dest);
    }
    const database = staged.get(expected)!;
    if (manifest.engine === 'sqlite') checkSqlite(database, manifest);
    else await pgCheckDump(database);

    const mediaKeys = new Set<string>();
    for (const file of manifest.files)
      if (file.name.startsWith(MEDIA_PREFIX)) {
        const key = file.name.slice(MEDIA_PREFIX.length);
        await store.put(key, staged.get(file.name)!, contentTypeOf(key));
        mediaKeys.add(key);
      }

    if (config.databaseUrl) {
      await restorePostgres(config.databaseUrl, database, options.force);
      await forgetStagedImports(config.databaseUrl);
    } else {
      forgetStagedImportsInFile(database);
      await replaceSqlite(config.storageDir, database);
    }

    let removedMedia = 0;
    if (options.force) {
      const stale = (await store.list('')).map((object) => object.key).filter((key) => !mediaKeys.has(key));
      await store.delete(stale);
      removedMedia = stale.length;
    }
    return { manifest, mediaFiles: mediaKeys.size, removedMedia };
  } finally {
    archive.close();
    await rm(staging, { recursive: true, force: true });
    lock?.release();
  }
}

function takeLock(config: AppConfig): InstanceLock {
  try {
    return InstanceLock.acquire(config);
  } catch (error) {
    if (error instanceof InstanceLockedError)
      throw new BackupError(`Stop the server first: ${error.message.replace(/\. With SQLite.*$/, '.')}`);
    throw error;
  }
}

/**
 * Staged imports are not in archives (their files live a day), so their rows would name files that are
 * gone: they are dropped, by the import lifecycle's own statement, and an administrator imports again.
 */
function forgetStagedImportsInFile(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.prepare(FORGET_STAGED_IMPORTS_SQL).run();
  } finally {
    db.close();
  }
}

async function forgetStagedImports(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(FORGET_STAGED_IMPORTS_SQL);
  } finally {
    await client.end();
  }
}

/** What is already in the target, in words; empty when there is nothing. */
async function occupants(config: AppConfig, store: MediaStore): Promise<string[]> {
  const found: string[] = [];
  if (config.databaseUrl) {
    const tables = await publicTables(config.databaseUrl);
    if (tables.length) found.push(`the database in DATABASE_URL is not empty (${tables.length} table(s))`);
  } else if (existsSync(join(config.storageDir, DATABASE_FILE))) {
    found.push(`${config.storageDir} already holds a database (${DATABASE_FILE})`);
  }
  const objects = await store.list('');
  if (objects.length) found.push(`the media store already holds ${objects.length} file(s)`);
  return found;
}

/** The staged copy is sound and is the schema the manifest says. */
function checkSqlite(file: string, manifest: Manifest): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    const check = db.pragma('integrity_check', { simple: true });
    const last = db.prepare('SELECT name FROM migrations ORDER BY timestamp DESC, id DESC LIMIT 1').get() as
      { name: string } | undefined;
    if (check !== 'ok' || last?.name !== manifest.schema.migration)
      throw new BackupError(
        'The database in the archive is damaged or does not match its manifest. Nothing was restored.',
      );
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(
      `The database in the archive cannot be read (${(error as Error).message}). Nothing was restored.`,
    );
  } finally {
    db.close();
  }
}

/**
 * The new database file replaces the old one by a rename, atomic on one file system. An old database is
 * checkpointed and closed first: its WAL must not survive to be replayed onto the new file.
 */
async function replaceSqlite(storageDir: string, staged: string): Promise<void> {
  const target = join(storageDir, DATABASE_FILE);
  if (existsSync(target)) {
    const old = new Database(target, { fileMustExist: true });
    try {
      old.pragma('wal_checkpoint(TRUNCATE)');
      old.pragma('journal_mode = DELETE');
    } finally {
      old.close();
    }
  }
  for (const leftover of ['-wal', '-shm', '-journal']) await rm(target + leftover, { force: true });
  await rename(staged, target);
}

async function publicTables(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`,
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/**
 * pg_restore runs in one transaction. With `force`, the old tables are dropped first, in a transaction of
 * their own: a crash between the two leaves an empty database (run the restore again), never a mix.
 */
async function restorePostgres(databaseUrl: string, dump: string, force = false): Promise<void> {
  if (force) {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const tables = await publicTables(databaseUrl);
      await client.query('BEGIN');
      for (const table of tables)
        await client.query(`DROP TABLE IF EXISTS "${table.replace(/"/g, '""')}" CASCADE`);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
  }
  await pgRestore(databaseUrl, dump);
}
