import { execFile, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BackupError } from './archive-format';

/** Debian keeps each major version's client tools in its own folder; `pg_dump` on PATH comes first. */
const DEBIAN_ROOT = '/usr/lib/postgresql';
const STDERR_KEEP = 4000;

export interface PgTool {
  bin: string;
  /** `pg_dump (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)` */
  version: string;
}

function versionOf(bin: string): Promise<string | null> {
  return new Promise((done) => {
    // A first start on a cold, busy disk can take seconds (as ffmpeg's, publishing/imports/ffmpeg.ts).
    execFile(bin, ['--version'], { timeout: 30_000 }, (error, stdout) =>
      done(error ? null : String(stdout).trim()),
    );
  });
}

function debianCandidates(name: string): string[] {
  try {
    return readdirSync(DEBIAN_ROOT)
      .filter((entry) => /^\d+$/.test(entry))
      .sort((a, b) => Number(b) - Number(a))
      .map((major) => join(DEBIAN_ROOT, major, 'bin', name));
  } catch {
    return [];
  }
}

/** `pg_dump` or `pg_restore`: the one on PATH, else the newest under /usr/lib/postgresql/<major>/bin. */
export async function findPgTool(name: 'pg_dump' | 'pg_restore'): Promise<PgTool> {
  for (const bin of [name, ...debianCandidates(name)]) {
    const version = await versionOf(bin);
    if (version) return { bin, version };
  }
  throw new BackupError(
    `${name} was not found (on PATH or in ${DEBIAN_ROOT}/<version>/bin). ` +
      'Install the PostgreSQL client tools: sudo apt-get install -y postgresql-client',
  );
}

/**
 * The connection URL without its password, and the password for PGPASSWORD: a password in the command
 * line would be visible to every user of the machine (ps).
 */
function connection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a client tool (no shell); rejects with the tail of its stderr. */
function run(tool: PgTool, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.bin, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_KEEP)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(stderr.trim() || `exit ${code}`)),
    );
  });
}

/**
 * Dumps the database in the custom format (-Fc) as seen by an exported snapshot, so the dump and the media
 * keys read in that snapshot agree. pg_dump refuses a server of a newer major version than its own.
 */
export async function pgDump(databaseUrl: string, snapshot: string, dest: string): Promise<PgTool> {
  const tool = await findPgTool('pg_dump');
  const { url, env } = connection(databaseUrl);
  try {
    await run(
      tool,
      ['--format=custom', `--snapshot=${snapshot}`, `--file=${dest}`, '--no-password', `--dbname=${url}`],
      env,
    );
  } catch (error) {
    const stderr = (error as Error).message;
    if (stderr.includes('server version mismatch'))
      throw new BackupError(
        `${tool.version} cannot dump this database: ${detail(stderr)}. pg_dump dumps servers of its own ` +
          "major version or older; install the client tools of the server's version (e.g. " +
          'postgresql-client-16 from apt.postgresql.org) and put its pg_dump first on PATH.',
      );
    throw new BackupError(`pg_dump failed: ${stderr}`);
  }
  return tool;
}

/**
 * Reads a dump's table of contents without touching any database: a dump this pg_restore cannot read (a
 * newer format, a damaged file) is refused before anything is dropped.
 */
export async function pgCheckDump(dump: string): Promise<void> {
  const tool = await findPgTool('pg_restore');
  try {
    await run(tool, ['--list', dump], process.env);
  } catch (error) {
    throw new BackupError(
      `${tool.version} cannot read the database dump in this archive (${detail((error as Error).message)}). Nothing was restored.`,
    );
  }
}

/** Restores a custom-format dump in one transaction: all of it, or nothing. */
export async function pgRestore(databaseUrl: string, dump: string): Promise<void> {
  const tool = await findPgTool('pg_restore');
  const { url, env } = connection(databaseUrl);
  try {
    await run(
      tool,
      [
        '--no-owner',
        '--no-privileges',
        '--single-transaction',
        '--exit-on-error',
        '--no-password',
        `--dbname=${url}`,
        dump,
      ],
      env,
    );
  } catch (error) {
    throw new BackupError(
      `pg_restore failed (nothing was restored into the database): ${(error as Error).message}`,
    );
  }
}

/** `server version: 16.2; pg_dump version: 15.14` from pg_dump's complaint. */
const detail = (stderr: string) =>
  /detail:\s*(.+)/.exec(stderr)?.[1]?.trim() ?? stderr.split('\n').slice(-1)[0];
