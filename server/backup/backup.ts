import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { AppConfig } from '../platform/config';
import { filesOf } from '../platform/media/media-urls';
import { createStores } from '../platform/media/store/create-stores';
import { ObjectNotFoundError, type MediaStore } from '../platform/media/store/media-store';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  BackupError,
  Checksum,
  MANIFEST_NAME,
  MEDIA_PREFIX,
  migrationTimestamp,
  type ArchivedFile,
  type Manifest,
} from './archive-format';
import { snapshotPostgres, snapshotSqlite, type Snapshot } from './database-snapshot';

export interface BackupReport {
  file: string;
  manifest: Manifest;
  bytes: number;
  /** Work folders of killed backups (each a copy of the database) removed before this one started. */
  removedStale: string[];
}

/**
 * The work folder holds a full copy of the database (password hashes, the generated session secret).
 * Its name carries the host and process id so that the next backup can tell a killed run's folder from
 * one a backup running right now is still using.
 */
const WORK_PREFIX = '.lingonovel-backup-';
const WORK_NAME = /^\.lingonovel-backup-(.+)-(\d+)-[A-Za-z0-9]{6}$/;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Only folders made on this host are judged (another machine's process ids mean nothing here, in a
 * folder shared over the network); a folder that cannot be removed is left for the operator rather than
 * stopping the backup.
 */
async function removeStaleWorkFolders(folder: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(folder)) {
    const match = WORK_NAME.exec(name);
    if (!match || match[1] !== hostname() || isRunning(Number(match[2]))) continue;
    const path = join(folder, name);
    await rm(path, { recursive: true, force: true }).then(
      () => removed.push(path),
      () => undefined,
    );
  }
  return removed;
}

/**
 * Writes one zip: the database snapshot, then every media file the SNAPSHOT names (read through the media
 * store: a file replaced or deleted since is kept an hour, MEDIA_GRACE_MS, so it is still there), then
 * manifest.json with each file's size and SHA-256. Streamed to disk one entry at a time, never held in
 * memory; written as FILE.partial and renamed at the end, so a file named FILE is always complete.
 */
/** `config` as loadConfig() reads it (not after the server's boot, which fills in the generated secret). */
export async function createBackup(config: AppConfig, out: string): Promise<BackupReport> {
  const target = resolve(out);
  if (existsSync(target)) throw new BackupError(`${out} already exists; give the backup a new file name.`);
  if (!existsSync(dirname(target))) throw new BackupError(`The folder ${dirname(target)} does not exist.`);
  const removedStale = await removeStaleWorkFolders(dirname(target));
  // mkdtemp makes the folder 0700 whatever the umask; the snapshot files in it are made 0600.
  const work = await mkdtemp(join(dirname(target), `${WORK_PREFIX}${hostname()}-${process.pid}-`));
  const partial = `${target}.partial`;
  try {
    const snapshot = config.databaseUrl
      ? await snapshotPostgres(config.databaseUrl, work)
      : await snapshotSqlite(config.storageDir, work);
    const manifest = await writeArchive(snapshot, createStores(config).media, partial, config);
    await rename(partial, target);
    const bytes = manifest.files.reduce((sum, file) => sum + file.size, 0);
    return { file: target, manifest, bytes, removedStale };
  } finally {
    await rm(work, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

async function writeArchive(snapshot: Snapshot, store: MediaStore, file: string, config: AppConfig) {
  const zip = new ZipFile();
  const written = pipeline(zip.outputStream, createWriteStream(file, { mode: 0o600 }));
  // A failing disk stops yazl; every wait below must then end too.
  const writeFailed = new Promise<never>((_, reject) => {
    written.catch(reject);
  });
  writeFailed.catch(() => undefined);
  const files: ArchivedFile[] = [];
  const add = async (name: string, source: Readable, compress: boolean) => {
    const checksum = new Checksum();
    source.on('error', (error) => checksum.destroy(error));
    zip.addReadStream(source.pipe(checksum), name, { compress });
    await Promise.race([finished(checksum), writeFailed]);
    files.push({ name, size: checksum.size, sha256: checksum.digest() });
  };

  try {
    await add(snapshot.entry, createReadStream(snapshot.file), true);
    const keys = [...new Set(snapshot.mediaPaths.flatMap(filesOf))].sort();
    const missingMedia: string[] = [];
    for (const key of keys) {
      const stream = await store.read(key).catch((error: unknown) => {
        if (error instanceof ObjectNotFoundError) return null;
        throw error;
      });
      if (stream) await add(MEDIA_PREFIX + key, stream, false);
      else missingMedia.push(key);
    }
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      createdAt: new Date().toISOString(),
      engine: snapshot.engine,
      schema: {
        migration: snapshot.migration,
        timestamp: migrationTimestamp(snapshot.migration),
        applied: snapshot.applied,
      },
      database: snapshot.entry,
      sessionSecret: sessionSecret(snapshot.secretInDatabase, Boolean(config.jwtSecret)),
      files,
      missingMedia,
    };
    zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2) + '\n'), MANIFEST_NAME);
    zip.end();
    await written;
    return manifest;
  } catch (error) {
    // Stops the half-written zip (FILE.partial is then removed): a failed read must not leave it open.
    (zip.outputStream as Readable).destroy();
    await written.catch(() => undefined);
    throw error;
  }
}

function sessionSecret(
  generatedInDatabase: boolean,
  jwtSecretConfigured: boolean,
): Manifest['sessionSecret'] {
  const note = jwtSecretConfigured
    ? "JWT_SECRET is configured and is not in this archive: it is the operator's. Restore with the same " +
      'JWT_SECRET, or sessions and signed clip URLs made before the backup stop working.'
    : 'The generated session secret is a row of the database (app_meta, key jwt_secret) and comes back ' +
      'with it: sessions made before the backup keep working after a restore.';
  return { generatedInDatabase, jwtSecretConfigured, note };
}
