import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/** Thrown for anything an operator can cause or fix (a bad file, a busy target): printed as one line. */
export class BackupError extends Error {}

export const ARCHIVE_FORMAT = 'lingonovel-backup';
export const ARCHIVE_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';
export const SQLITE_ENTRY = 'database/lingonovel.sqlite';
export const PG_DUMP_ENTRY = 'database/lingonovel.pgdump';
export const MEDIA_PREFIX = 'media/';

export type Engine = 'sqlite' | 'postgres';

export interface ArchivedFile {
  name: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  createdAt: string;
  engine: Engine;
  /** The last migration the snapshot had applied: restore refuses one the code does not know. */
  schema: { migration: string; timestamp: number; applied: number };
  database: string;
  /**
   * Where the session secret is: a generated one is a row of the database (app_meta `jwt_secret`), so it
   * comes back with it; a configured JWT_SECRET is the operator's and is never written here.
   */
  sessionSecret: { generatedInDatabase: boolean; jwtSecretConfigured: boolean; note: string };
  /** Every file in the archive but this manifest. */
  files: ArchivedFile[];
  /** Keys the snapshot names that the media store did not have when the backup ran. */
  missingMedia: string[];
}

/**
 * Names in an archive are ours, but a restore never trusts them: relative, slash-separated, no empty, dot
 * or dot-dot part, no backslash, NUL or drive letter.
 */
export function isSafeEntryName(name: string): boolean {
  if (!name || name.length > 1024 || name.startsWith('/') || /[\\\0]|^[a-z]:/i.test(name)) return false;
  return name.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** The migration's timestamp, from its class name (`MediaTrash1763827200000`). */
export const migrationTimestamp = (name: string): number => Number(/(\d{13})$/.exec(name)?.[1] ?? 0);

/** Passes bytes through while counting them and hashing them with SHA-256. */
export class Checksum extends Transform {
  private readonly hash = createHash('sha256');
  size = 0;

  _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    done(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
