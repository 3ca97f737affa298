import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SetupService } from '../accounts/setup/setup.service';
import { ApiClient, newMember } from './api-client';
import { sql } from '../platform/database/sql';
import { controlClock, MINUTE } from './clock';
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

  /** What a boot prints: the setup code (each test here starts with nobody administrator). */
  const boot = async () => {
    const run = await server.app.get(SetupService).atBoot();
    if (run.kind !== 'code') throw new Error(`expected a code, got ${run.kind}`);
    return run.code;
  };

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

    const clock = controlClock(server);
    const first = await boot();
    expect(first).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    // Only its hash is kept.
    const stored = await server.app
      .get(DataSource)
      .query<Array<{ value: string }>>("SELECT value FROM app_meta WHERE key LIKE 'setup_code%'");
    expect(stored.map((row) => row.value)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    // A boot six minutes later (a restart) makes a new code: the old one no longer works.
    clock.advance(6 * MINUTE);
    const second = await boot();
    clock.restore();
    const body = { name: 'Root', email: 'Root@Example.org', password: 'a good password 1' };
    const stale = await guest.post<Refusal>('setup', { ...body, code: first });
    expect([stale.status, stale.body.errors]).toEqual([
      422,
      { code: ['This is not the setup code the server printed.'] },
    ]);
    const bad = await guest.post<Refusal>('setup', {
      code: second,
      name: '',
      email: 'nope',
      password: 'short',
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(['email', 'name', 'password']);

    // Typed in lower case with spaces, as people copy codes: still the code.
    const code = second.toLowerCase().replace(/-/g, ' ');
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
      code: second,
    });
    expect(again.status).toBe(409);
    expect(await server.app.get(SetupService).atBoot()).toEqual({ kind: 'ready' });
  });
});

describe('First run of instances deployed together', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('keeps the code of each boot within five minutes of the others; the first used ends them all', async () => {
    const setup = server.app.get(SetupService);
    const clock = controlClock(server);
    // One after the other here; at once, on PostgreSQL, in multi-instance.e2e-spec.ts.
    const boots = [await setup.atBoot(), await setup.atBoot()];
    clock.advance(4 * MINUTE);
    boots.push(await setup.atBoot());
    clock.restore();
    const codes = boots.map((run) => (run.kind === 'code' ? run.code : run.kind));
    expect(new Set(codes).size).toBe(3);

    const guest = new ApiClient(server);
    const body = { name: 'Root', email: 'root@example.org', password: 'a good password 1' };
    // A member's address is refused after the code was accepted: the probe uses nothing up.
    const { email: taken } = await newMember(server);
    for (const code of codes) {
      const probe = await guest.post<Refusal>('setup', { ...body, email: taken, code });
      expect([probe.status, Object.keys(probe.body.errors ?? {})]).toEqual([422, ['email']]);
    }
    expect((await guest.post('setup', { ...body, code: codes[1] })).status).toBe(200);
    const later = await guest.post<Refusal>('setup', { ...body, email: 'other@example.org', code: codes[0] });
    expect(later.status).toBe(409);
    const left = await server.app
      .get(DataSource)
      .query<unknown[]>("SELECT 1 FROM app_meta WHERE key LIKE 'setup_code%'");
    expect(left).toHaveLength(0);
  });
});

describe('First run after an upgrade', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('takes the code an earlier version printed until the next boot replaces it', async () => {
    // Earlier versions kept one row, `setup_code`, with the hash of the code as typed without dashes.
    const hash = createHash('sha256').update('AAAABBBBCCCC').digest('hex');
    await sql(server.app.get(DataSource), 'INSERT INTO app_meta (key, value) VALUES (?, ?)', [
      'setup_code',
      hash,
    ]);
    const guest = new ApiClient(server);
    const { email: taken } = await newMember(server);
    const body = { name: 'Root', password: 'a good password 1', code: 'aaaa-bbbb-cccc' };
    const accepted = await guest.post<Refusal>('setup', { ...body, email: taken });
    expect([accepted.status, Object.keys(accepted.body.errors ?? {})]).toEqual([422, ['email']]);

    const code = await server.app.get(SetupService).atBoot();
    expect(code.kind).toBe('code');
    const stale = await guest.post<Refusal>('setup', { ...body, email: 'root@example.org' });
    expect([stale.status, stale.body.errors]).toEqual([
      422,
      { code: ['This is not the setup code the server printed.'] },
    ]);
  });
});
