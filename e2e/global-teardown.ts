import { rmSync } from 'node:fs';

/**
 * Removes the run's throw-away installation (the demo catalogue, its media and the database: a few
 * megabytes per run, which would pile up in the temp folder). The server is still up at this point, but
 * idle: Playwright stops it right after, with SIGKILL, so it writes nothing more.
 */
export default function globalTeardown(): void {
  const dir = process.env.E2E_STORAGE_DIR;
  if (dir && process.env.E2E_STORAGE_DIR_TEMPORARY === '1') rmSync(dir, { recursive: true, force: true });
}
