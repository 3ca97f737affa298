import { DataSource } from 'typeorm';
import { SetupService } from '../accounts/setup/setup.service';
import { ApiClient } from './api-client';
import { startServer, type TestServer } from './harness';

type Refusal = { message: string; errors?: Record<string, string[]> };

/**
 * The first run (docs/deploy.md, "First run"): while no administrator exists the boot makes a one-time
 * setup code (its hash kept in the database), and POST setup creates the first administrator with it, once.
 */
describe('First run', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('creates the first administrator with the boot’s code, once; a wrong code, bad fields and a second try are refused', async () => {
    const guest = new ApiClient(server);
    expect((await guest.get('setup')).body).toEqual({ data: { needed: true } });
    // No code yet (the boot did not run the first-run step in this harness): nothing to set up with.
    const early = await guest.post<Refusal>('setup', {
      code: 'AAAA-BBBB-CCCC',
      name: 'Root',
      email: 'root@example.org',
      password: 'a good password 1',
    });
    expect(early.status).toBe(404);

    const first = await server.app.get(SetupService).atBoot();
    if (first.kind !== 'code') throw new Error(`expected a code, got ${first.kind}`);
    expect(first.code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    // Only its hash is kept.
    const stored = await server.app
      .get(DataSource)
      .query<Array<{ value: string }>>("SELECT value FROM app_meta WHERE key = 'setup_code'");
    expect(stored.map((row) => row.value)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    // A new boot makes a new code: the old one no longer works.
    const second = await server.app.get(SetupService).atBoot();
    if (second.kind !== 'code') throw new Error(`expected a code, got ${second.kind}`);
    const body = { name: 'Root', email: 'Root@Example.org', password: 'a good password 1' };
    const stale = await guest.post<Refusal>('setup', { ...body, code: first.code });
    expect([stale.status, stale.body.errors]).toEqual([
      422,
      { code: ['This is not the setup code the server printed.'] },
    ]);
    const bad = await guest.post<Refusal>('setup', {
      code: second.code,
      name: '',
      email: 'nope',
      password: 'short',
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(['email', 'name', 'password']);

    // Typed in lower case with spaces, as people copy codes: still the code.
    const code = second.code.toLowerCase().replace(/-/g, ' ');
    const made = await guest.post<{ message: string }>('setup', { ...body, code });
    expect([made.status, made.body.message]).toEqual([
      200,
      'Created administrator root@example.org: sign in.',
    ]);
    const login = await guest.post<{ user: { user_type: number } }>('user/login', {
      email: 'root@example.org',
      password: body.password,
    });
    expect([login.status, login.body.user.user_type]).toEqual([200, 1]);

    expect((await guest.get('setup')).body).toEqual({ data: { needed: false } });
    const again = await guest.post<Refusal>('setup', {
      ...body,
      email: 'other@example.org',
      code: second.code,
    });
    expect(again.status).toBe(409);
    expect(await server.app.get(SetupService).atBoot()).toEqual({ kind: 'ready' });
  });
});
