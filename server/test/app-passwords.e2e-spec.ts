import { JsonLogger } from '../http/app-logger';
import { ApiClient, newMember } from './api-client';
import { makeBook } from './books';
import { newAdmin } from './api-client';
import { startServer, type TestServer } from './harness';
import { resetDetails, TestSmtp } from './smtp';

/** A JSON logger writing into memory: the very class LOG_FORMAT=json gives the app. */
const logged: string[] = [];
const logger = new JsonLogger({ write: (line: string) => void logged.push(line) });

const basic = (email: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`,
});
const PASSWORD = /^[a-z2-7]{4}(-[a-z2-7]{4}){5}$/;
const WRONG = {
  message:
    'These credentials do not match our records. Use your email and an app password made on your profile.',
};
const LOCKED = {
  message:
    'Too many wrong app passwords for this account. Please try again later, or make a new app password on your profile.',
};
const SIGN_IN_LOCKED = {
  message:
    'Too many failed sign-in attempts for this account. Please try again later or reset your password.',
};

describe('App passwords: made once, listed without secrets, accepted as HTTP Basic on downloads only', () => {
  let server: TestServer;
  const smtp = new TestSmtp();
  let code: string;
  /** Chapter 2's subtitles: 401 to a visitor, 403 to a member without a plan. So 403 means "recognised". */
  let locked: string;

  beforeAll(async () => {
    server = await startServer(undefined, { LOG_FORMAT: 'json', SMTP_URL: await smtp.start() }, logger);
    ({ code } = await makeBook((await newAdmin(server)).client));
    locked = `downloads/${code}/chapter/2/subtitles.vtt`;
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  async function memberWithPassword(name = 'KOReader') {
    const member = await newMember(server);
    const made = await member.client.post<{
      message: string;
      data: Record<string, unknown> & { id: number; password: string };
    }>('user/app-passwords', { name: `  ${name}  ` });
    expect(made.status).toBe(200);
    return { ...member, signIn: member.password, made: made.body, password: made.body.data.password };
  }

  it('answers the password once, lists name and dates only, and lets a reading app in with it', async () => {
    const { client, email, password, made } = await memberWithPassword();
    expect(made).toEqual({
      message: 'Copy this password into your reading app now: it will not be shown again.',
      data: {
        id: expect.any(Number),
        name: 'KOReader',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        last_used_at: null,
        password: expect.stringMatching(PASSWORD),
      },
    });
    const list = await client.get<{ data: unknown[] }>('user/app-passwords');
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const listed = Object.fromEntries(Object.entries(made.data).filter(([key]) => key !== 'password'));
    expect(list.body).toEqual({ data: [listed] });
    expect(list.text).not.toContain(password);

    const visitor = new ApiClient(server);
    expect((await visitor.get(locked)).status).toBe(401);
    const app = await visitor.get(locked, basic(email, password));
    expect(app.status).toBe(403);
    expect(app.headers.get('cache-control')).toBe('private, no-store');
    // As a person would type it: upper case, without the dashes, the email in another case.
    const typed = await visitor.get(
      locked,
      basic(email.toUpperCase(), password.replace(/-/g, '').toUpperCase()),
    );
    expect(typed.status).toBe(403);
    const after = await client.get<{ data: Array<{ last_used_at: string | null }> }>('user/app-passwords');
    expect(after.body.data[0].last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('refuses a wrong, malformed or revoked password with 401 and a Basic challenge', async () => {
    const { client, email, password, made } = await memberWithPassword();
    const visitor = new ApiClient(server);
    for (const headers of [
      basic(email, 'abcd-efgh-ijkl-mnop-qrst-uvwx'),
      basic('nobody@example.org', password),
      { Authorization: 'Basic !!!' },
      { Authorization: `Basic ${Buffer.from('no colon').toString('base64')}` },
    ]) {
      const res = await visitor.get(locked, headers);
      expect([res.status, res.body, res.headers.get('www-authenticate')]).toEqual([
        401,
        WRONG,
        'Basic realm="Lingonovel"',
      ]);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
    }
    expect((await client.delete(`user/app-passwords/${made.data.id}`)).body).toEqual({
      message: 'The app password has been revoked.',
    });
    expect((await client.get('user/app-passwords')).body).toEqual({ data: [] });
    const revoked = await visitor.get(locked, basic(email, password));
    expect([revoked.status, revoked.headers.get('www-authenticate')]).toEqual([
      401,
      'Basic realm="Lingonovel"',
    ]);
  });

  it('lets a valid app password in whatever the failures, and keeps Basic failures apart from sign-in', async () => {
    const first = await memberWithPassword();
    const visitor = new ApiClient(server);
    // Anyone who knows the email may send wrong passwords: that locks out the wrong ones, not the app.
    for (let i = 0; i < 5; i++)
      expect((await visitor.get(locked, basic(first.email, 'wrong-wrong'))).status).toBe(401);
    const sixth = await visitor.get(locked, basic(first.email, 'wrong-wrong'));
    expect([sixth.status, sixth.body]).toEqual([429, LOCKED]);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(800);
    expect((await visitor.get(locked, basic(first.email, first.password))).status).toBe(403);
    // An app with a stale password does not lock its member's web sign-in.
    const signIn = await new ApiClient(server).post('user/login', {
      email: first.email,
      password: first.signIn,
    });
    expect(signIn.status).toBe(200);

    // Nor does a sign-in lock stop the member's apps.
    const second = await memberWithPassword();
    for (let i = 0; i < 6; i++)
      await new ApiClient(server).post('user/login', { email: second.email, password: 'a wrong password' });
    const web = await new ApiClient(server).post('user/login', {
      email: second.email,
      password: second.signIn,
    });
    expect([web.status, web.body]).toEqual([429, SIGN_IN_LOCKED]);
    expect((await visitor.get(locked, basic(second.email, second.password))).status).toBe(403);
  });

  it('answers guesses sent all at once with 401 or 429, never a 500, and still lets the right one in', async () => {
    const { email, password } = await memberWithPassword();
    const visitor = new ApiClient(server);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => visitor.get(locked, basic(email, 'wrong-wrong-wrong'))),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    expect(statuses).toContain(429);
    expect((await visitor.get(locked, basic(email, 'wrong-wrong-wrong'))).status).toBe(429);
    expect((await visitor.get(locked, basic(email, password))).status).toBe(403);
  });

  it('ends every app password when the password is reset or changed', async () => {
    const reset = await memberWithPassword();
    const visitor = new ApiClient(server);
    expect((await visitor.get(locked, basic(reset.email, reset.password))).status).toBe(403);
    await visitor.post('user/password-recovery-token', { email: reset.email });
    const { token } = resetDetails(await smtp.waitFor(reset.email));
    const done = await visitor.post('user/reset-password-using-token', {
      verification_token: token,
      password: 'brand new pass 1',
      confirm_password: 'brand new pass 1',
    });
    expect(done.status).toBe(200);
    const after = await visitor.get(locked, basic(reset.email, reset.password));
    expect([after.status, after.body, after.headers.get('www-authenticate')]).toEqual([
      401,
      WRONG,
      'Basic realm="Lingonovel"',
    ]);

    const changed = await memberWithPassword();
    expect((await visitor.get(locked, basic(changed.email, changed.password))).status).toBe(403);
    const change = await changed.client.post<{ token: string }>('user/change-password', {
      current_password: changed.signIn,
      password: 'brand new pass 2',
      confirm_password: 'brand new pass 2',
    });
    expect(change.status).toBe(200);
    expect((await visitor.get(locked, basic(changed.email, changed.password))).status).toBe(401);
    const fresh = new ApiClient(server).withToken(change.body.token);
    expect((await fresh.get('user/app-passwords')).body).toEqual({ data: [] });
  });

  it('keeps Basic to the download and OPDS routes: a member route refuses it', async () => {
    const { email, password } = await memberWithPassword();
    const visitor = new ApiClient(server);
    for (const path of ['user/profile', 'user/app-passwords', 'user/progress']) {
      const res = await visitor.get(path, basic(email, password));
      expect([path, res.status, res.body]).toEqual([
        path,
        401,
        { message: 'Your session has expired or is not valid. Please sign in.' },
      ]);
    }
    expect((await visitor.post('user/app-passwords', { name: 'x' }, basic(email, password))).status).toBe(
      401,
    );
  });

  it('checks names, allows 20 per member, and answers 404 for another member’s password', async () => {
    const { client } = await newMember(server);
    for (const [name, message] of [
      ['', 'The name field is required.'],
      ['   ', 'The name field is required.'],
      ['x'.repeat(101), 'The name must not be longer than 100 characters.'],
      [42, 'The name must be text.'],
    ] as const) {
      const res = await client.post('user/app-passwords', { name });
      expect([res.status, res.body]).toEqual([422, { message, errors: { name: [message] } }]);
    }
    expect((await client.post('user/app-passwords', { name: 'x'.repeat(100) })).status).toBe(200);
    for (let i = 2; i <= 20; i++)
      expect((await client.post('user/app-passwords', { name: `App ${i}` })).status).toBe(200);
    const over = await client.post('user/app-passwords', { name: 'One more' });
    expect([over.status, over.body]).toEqual([
      422,
      {
        message: 'You have 20 app passwords already. Revoke one you no longer use, then make a new one.',
      },
    ]);
    const mine = await client.get<{ data: Array<{ id: number }> }>('user/app-passwords');
    expect(mine.body.data).toHaveLength(20);

    const other = (await newMember(server)).client;
    for (const id of [mine.body.data[0].id, 999_999, 'abc'])
      expect((await other.delete(`user/app-passwords/${id}`)).status).toBe(404);
    expect((await client.get<{ data: unknown[] }>('user/app-passwords')).body.data).toHaveLength(20);
    expect((await client.delete(`user/app-passwords/${mine.body.data[0].id}`)).status).toBe(200);
    expect((await client.post('user/app-passwords', { name: 'One more' })).status).toBe(200);
  });

  it('keeps to 20 when 21 are asked for at once', async () => {
    const { client } = await newMember(server);
    const answers = await Promise.all(
      Array.from({ length: 21 }, (_, i) => client.post('user/app-passwords', { name: `App ${i}` })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([...Array<number>(20).fill(200), 422]);
    expect((await client.get<{ data: unknown[] }>('user/app-passwords')).body.data).toHaveLength(20);
  });

  it('writes neither the password nor the header into the log, on success or failure', async () => {
    const { email, password } = await memberWithPassword();
    const visitor = new ApiClient(server);
    const good = basic(email, password);
    const bad = basic(email, 'zzzz-zzzz-zzzz-zzzz-zzzz-zzzz');
    expect((await visitor.get(locked, good)).status).toBe(403);
    expect((await visitor.get(locked, bad)).status).toBe(401);
    const everything = logged.join('');
    expect(everything).toContain(`/api/v1/${locked}`);
    for (const secret of [
      password,
      password.replace(/-/g, ''),
      good.Authorization.slice(6),
      bad.Authorization.slice(6),
      'zzzz-zzzz',
      'Basic',
      email,
    ])
      expect(everything).not.toContain(secret);
  });

  // Last: it fills this address's window for the rest of the file.
  it('lets the right password in from an address that has sent many wrong ones', async () => {
    const { email, password } = await memberWithPassword();
    const visitor = new ApiClient(server);
    let status = 401;
    for (let i = 0; i < 25 && status === 401; i++)
      status = (await visitor.get(locked, basic(`stranger-${i}@example.org`, 'wrong-wrong'))).status;
    const crowded = await visitor.get(locked, basic('another@example.org', 'wrong-wrong'));
    expect([crowded.status, crowded.body]).toEqual([
      429,
      { message: 'Too many failed sign-in attempts from this address. Please try again later.' },
    ]);
    expect((await visitor.get(locked, basic(email, password))).status).toBe(403);
  });
});
