import jwt from 'jsonwebtoken';
import { ApiClient, newMember } from './api-client';
import { controlClock, MINUTE } from './clock';
import { startServer, type TestServer } from './harness';

type Login = { token: string; device_token: string };
const LOCKED =
  'Too many failed sign-in attempts for this account. Please try again later or reset your password.';

/** OWASP's device cookies: strangers' guesses lock out strangers, never the owner's own browser. */
describe('Sign-in lockout with device tokens', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  const login = (body: Record<string, string>) => new ApiClient(server).post<Login>('user/login', body);
  const guess = (email: string, times: number, extra: Record<string, string> = {}) =>
    Promise.all(Array.from({ length: times }, () => login({ email, password: 'wrong password', ...extra })));

  it("lets the owner's device sign in while an attacker has locked everyone else out", async () => {
    const { email, password } = await newMember(server);
    const device = (await login({ email, password })).body.device_token;

    const attack = await guess(email, 8);
    expect(attack.filter((a) => a.status === 429)).toHaveLength(3);
    const stranger = await login({ email, password });
    expect(stranger.status).toBe(429);
    expect(stranger.body).toEqual({ message: LOCKED });

    const owner = await login({ email, password, device_token: device });
    expect(owner.status).toBe(200);
    expect(owner.body.device_token).toEqual(expect.any(String));
  });

  it("limits the owner's device after its own failures, and only that device", async () => {
    const { email, password } = await newMember(server);
    const device = (await login({ email, password })).body.device_token;
    const otherDevice = (await login({ email, password })).body.device_token;

    const failures = await guess(email, 7, { device_token: device });
    expect(failures.map((f) => f.status).sort()).toEqual([422, 422, 422, 422, 422, 429, 429]);
    expect((await login({ email, password, device_token: device })).status).toBe(429);
    // Another trusted browser and the untrusted ones each keep their own budget.
    expect((await login({ email, password, device_token: otherDevice })).status).toBe(200);
    expect((await login({ email, password })).status).toBe(200);
  });

  it('treats a device token of another account as no device token at all', async () => {
    const victim = await newMember(server);
    const thief = await newMember(server);
    const stolen = (await login({ email: thief.email, password: thief.password })).body.device_token;
    await guess(victim.email, 5);
    const res = await login({ email: victim.email, password: victim.password, device_token: stolen });
    expect(res.status).toBe(429);
  });

  it('is not a session, and a session is not a device token', async () => {
    const { email, password } = await newMember(server);
    const { token, device_token } = (await login({ email, password })).body;
    expect((await new ApiClient(server, device_token).get('user/profile')).status).toBe(401);
    await guess(email, 5);
    expect((await login({ email, password, device_token: token })).status).toBe(429);
  });

  it("a password change revokes the account's device tokens", async () => {
    const { email, password, client } = await newMember(server);
    const device = (await login({ email, password })).body.device_token;
    const changed = await client.post('user/change-password', {
      current_password: password,
      password: 'a brand new password',
      confirm_password: 'a brand new password',
    });
    expect(changed.status).toBe(200);
    await guess(email, 5);
    expect((await login({ email, password: 'a brand new password', device_token: device })).status).toBe(429);
  });

  it('unlocks the untrusted browsers after 15 minutes', async () => {
    const clock = controlClock(server);
    try {
      const { email, password } = await newMember(server);
      await guess(email, 5);
      expect((await login({ email, password })).status).toBe(429);
      clock.advance(15 * MINUTE + 1000);
      expect((await login({ email, password })).status).toBe(200);
    } finally {
      clock.restore();
    }
  });

  it('refuses a token that says it is a device token, even signed with the session key', async () => {
    const { id } = await newMember(server);
    const typed = jwt.sign({ typ: 'device', ver: 0 }, server.config.jwtSecret, {
      algorithm: 'HS256',
      subject: String(id),
      expiresIn: 60,
    });
    expect((await new ApiClient(server, typed).get('user/profile')).status).toBe(401);
  });

  it('refuses a session token without an expiry, even correctly signed', async () => {
    const { id } = await newMember(server);
    const forever = jwt.sign({ ver: 0 }, server.config.jwtSecret, {
      algorithm: 'HS256',
      subject: String(id),
    });
    expect((await new ApiClient(server, forever).get('user/profile')).status).toBe(401);
    const expiring = jwt.sign({ ver: 0 }, server.config.jwtSecret, {
      algorithm: 'HS256',
      subject: String(id),
      expiresIn: 60,
    });
    expect((await new ApiClient(server, expiring).get('user/profile')).status).toBe(200);
  });
});
