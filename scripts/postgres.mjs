// A throw-away PostgreSQL cluster on a loopback port, for the tests: Debian's `postgresql` package,
// started from an empty data folder and removed afterwards. initdb refuses to run as root, so as root the
// cluster belongs to the `postgres` user the package creates.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const POSTGRES_HINT =
  "PostgreSQL was not found. Install Debian's PostgreSQL with: sudo apt-get update && sudo apt-get install -y postgresql (or set PG_BIN to the folder holding initdb and pg_ctl).";

/** The folder holding initdb and pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin. */
export function findPostgres() {
  if (process.env.PG_BIN) return existsSync(join(process.env.PG_BIN, 'initdb')) ? process.env.PG_BIN : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster and returns its URL (the `postgres` superuser, trust on loopback only) and a stop
 * function that removes everything. The tests create one database per test server inside it.
 */
export async function startPostgres() {
  const bin = findPostgres();
  if (!bin) throw new Error(POSTGRES_HINT);
  const dir = mkdtempSync(join(tmpdir(), 'lingonovel-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (command, args) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    const result = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0)
      throw new Error(`${command} failed: ${result.error?.message ?? ''}${result.stdout}${result.stderr}`);
  };
  try {
    run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const options = [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      `-k ${dir}`,
      // A throw-away cluster: speed over durability, and room for many test databases' connections.
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ');
    run(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  } catch (error) {
    // A cluster that did not start leaves no folder behind (a half-made one is hundreds of megabytes).
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
