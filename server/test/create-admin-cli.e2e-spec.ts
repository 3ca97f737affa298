import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../platform/paths';
import { ApiClient } from './api-client';
import { assertBuilt } from './built-server';
import { databaseUrlFor } from './database';
import { startServer, tempStorage } from './harness';

const CLI = join(PROJECT_ROOT, 'dist', 'app', 'server', 'cli', 'create-admin.js');

/**
 * `npm run create-admin` without `--password` (docs/deploy.md): a new administrator's password comes from
 * standard input, so that neither the shell's history nor `ps` ever holds it; a member promoted keeps theirs.
 */
describe('npm run create-admin', () => {
  beforeAll(() => assertBuilt());

  const run = async (dir: string, args: string[], input: string) =>
    spawnSync(process.execPath, [CLI, ...args], {
      env: { ...process.env, STORAGE_DIR: dir, DATABASE_URL: (await databaseUrlFor(dir)) ?? '' },
      input,
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('reads a new administrator’s password from standard input, and refuses an empty one', async () => {
    const dir = tempStorage();
    const password = 'a password nobody saw 7';
    const created = await run(
      dir,
      ['--email', 'Root@Example.org', '--name', 'Root'],
      `${password}\nignored\n`,
    );
    expect(created.stderr).toBe('');
    expect([created.status, created.stdout.trim()]).toEqual([0, 'Created administrator root@example.org.']);

    const empty = await run(dir, ['--email', 'second@example.org', '--name', 'Second'], '\n');
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain('The password must be');
    // A member promoted is not asked for one, and keeps theirs.
    const promoted = await run(dir, ['--email', 'root@example.org', '--name', 'Root'], '');
    expect([promoted.status, promoted.stdout.trim()]).toEqual([
      0,
      'Promoted root@example.org to administrator.',
    ]);

    const server = await startServer(dir);
    try {
      const login = await new ApiClient(server).post<{ user: { user_type: number } }>('user/login', {
        email: 'root@example.org',
        password,
      });
      expect(login.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
