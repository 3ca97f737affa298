import { DataSource } from 'typeorm';
import { User } from '../accounts/users/user.entity';
import { ApiClient, newMember } from './api-client';
import { startServer, type TestServer } from './harness';

describe('Sign up', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  const signup = (body: unknown) => new ApiClient(server).post('user/signup', body);

  it('creates a member account and signs it in: the login answer with a message', async () => {
    const res = await signup({
      name: 'Lea',
      email: 'Lea@Example.org',
      password: 'a good password',
      repeat_password: 'a good password',
    });
    expect(res.status).toBe(200);
    const user = await server.app
      .get(DataSource)
      .getRepository(User)
      .findOneByOrFail({ email: 'lea@example.org' });
    expect(res.body).toEqual({
      message: 'Your account has been created and you are signed in.',
      token: expect.stringMatching(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/),
      user: { id: user.id, name: 'Lea', email: 'lea@example.org', user_type: 2, user_role_id: 2 },
      device_token: expect.stringMatching(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/),
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(user).toEqual(expect.objectContaining({ name: 'Lea', userType: 2, userRoleId: 2 }));
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it("answers a working session and this browser's device token", async () => {
    const password = 'a good password';
    const anonymous = new ApiClient(server);
    const res = await anonymous.post<{ token: string; device_token: string; user: { id: number } }>(
      'user/signup',
      { name: 'Noa', email: 'noa@example.org', password, repeat_password: password },
    );
    expect(res.status).toBe(200);
    const profile = await anonymous
      .withToken(res.body.token)
      .get<{ data: { id: number; email: string } }>('user/profile');
    expect([profile.status, profile.body.data.id, profile.body.data.email]).toEqual([
      200,
      res.body.user.id,
      'noa@example.org',
    ]);
    // A damaged device token is only not trusted: the member still signs in with the right password.
    const damaged = await new ApiClient(server).post('user/login', {
      email: 'noa@example.org',
      password,
      device_token: `${res.body.device_token}\u0001`,
    });
    expect(damaged.status).toBe(200);
    // The device token is not a session, and it is this account's: failed sign-ins of strangers do not
    // lock out a browser that sends it.
    expect((await anonymous.withToken(res.body.device_token).get('user/profile')).status).toBe(401);
    for (let i = 0; i < 5; i++)
      await new ApiClient(server).post('user/login', {
        email: 'noa@example.org',
        password: 'wrong password',
      });
    const locked = await new ApiClient(server).post('user/login', { email: 'noa@example.org', password });
    expect(locked.status).toBe(429);
    const trusted = await new ApiClient(server).post('user/login', {
      email: 'noa@example.org',
      password,
      device_token: res.body.device_token,
    });
    expect(trusted.status).toBe(200);
  });

  it('lists the first problem of every field', async () => {
    const res = await signup({});
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The name field is required.',
      errors: {
        name: ['The name field is required.'],
        email: ['The email field is required.'],
        password: ['The password field is required.'],
        repeat_password: ['The repeat password field is required.'],
      },
    });
  });

  it('refuses a malformed email, a short password and a repeat that does not match', async () => {
    const res = await signup({
      name: 'Al',
      email: 'not-an-email',
      password: 'short',
      repeat_password: 'other',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      email: ['The email must be a valid email address.'],
      password: ['The password must be between 8 and 128 characters.'],
      repeat_password: ['The repeated password does not match.'],
    });
  });

  it('refuses a password over 128 characters', async () => {
    const long = 'x'.repeat(129);
    const res = await signup({ name: 'Al', email: 'al@example.org', password: long, repeat_password: long });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ password: ['The password must be between 8 and 128 characters.'] });
  });

  it('refuses an email that is already registered, whatever its case', async () => {
    const body = {
      name: 'Bo',
      email: 'bo@example.org',
      password: 'a good password',
      repeat_password: 'a good password',
    };
    expect((await signup(body)).status).toBe(200);
    const again = await signup({ ...body, email: ' BO@example.org ' });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({
      message: 'The email has already been taken.',
      errors: { email: ['The email has already been taken.'] },
    });
  });

  it('accepts url-encoded and multipart bodies as well as JSON', async () => {
    const form = new URLSearchParams({
      name: 'Cy',
      email: 'cy@example.org',
      password: 'a good password',
      repeat_password: 'a good password',
    });
    expect((await new ApiClient(server).post('user/signup', form)).status).toBe(200);
    const multipart = new FormData();
    for (const [key, value] of Object.entries({
      name: 'Di',
      email: 'di@example.org',
      password: 'a good password',
      repeat_password: 'a good password',
    }))
      multipart.set(key, value);
    expect((await new ApiClient(server).post('user/signup', multipart)).status).toBe(200);
  });

  it('refuses a file sent to a call that takes none, and unknown fields', async () => {
    const multipart = new FormData();
    multipart.set('name', 'Ed');
    multipart.set('avatar', new Blob(['GIF89a']), 'a.gif');
    const res = await new ApiClient(server).post('user/signup', multipart);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The avatar field does not accept a file.',
      errors: { avatar: ['The avatar field does not accept a file.'] },
    });

    const extra = await signup({
      name: 'Ed',
      email: 'ed@example.org',
      password: 'a good password',
      repeat_password: 'a good password',
      user_type: 1,
    });
    expect(extra.status).toBe(422);
    expect(extra.body.errors).toEqual({ user_type: ['property user_type should not exist'] });
  });

  it('refuses __proto__, constructor and the like as unknown fields, in JSON, forms and multipart', async () => {
    const fields =
      '"name":"Ed","email":"proto@example.org","password":"a good password","repeat_password":"a good password"';
    const refusal = (field: string, key = field) => ({
      message: `property ${key} should not exist`,
      errors: { [field]: [`property ${key} should not exist`] },
    });
    const send = (body: string | FormData, type?: string) =>
      new ApiClient(server).request('POST', 'user/signup', body, type ? { 'Content-Type': type } : {});
    const json = 'application/json';
    const form = 'application/x-www-form-urlencoded';
    for (const [body, type, expected] of [
      [`{"__proto__":{"user_type":1},${fields}}`, json, refusal('__proto__')],
      [`{"constructor":{"prototype":{"user_type":1}},${fields}}`, json, refusal('constructor')],
      [`{"hasOwnProperty":1,${fields}}`, json, refusal('hasOwnProperty')],
      [`{${fields},"name":{"__proto__":"Ed"}}`, json, refusal('name.__proto__', '__proto__')],
      ['__proto__[user_type]=1&name=Ed', form, refusal('__proto__')],
      ['name[__proto__]=Ed', form, refusal('name.__proto__', '__proto__')],
      ['constructor=1&name=Ed', form, refusal('constructor')],
    ] as const) {
      const res = await send(body, type);
      expect([body, res.status, res.body]).toEqual([body, 422, expected]);
    }
    const multipart = new FormData();
    multipart.set('__proto__', '1');
    multipart.set('name', 'Ed');
    const res = await send(multipart);
    expect([res.status, res.body]).toEqual([422, refusal('__proto__')]);
    // Nothing was signed up on the way.
    const users = await server.app
      .get(DataSource)
      .getRepository(User)
      .countBy({ email: 'proto@example.org' });
    expect(users).toBe(0);
  });
});

describe('Sign in', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('answers a token and the user without any secret', async () => {
    const { email, password, id } = await newMember(server, 'Fay');
    const res = await new ApiClient(server).post('user/login', { email: email.toUpperCase(), password });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      token: expect.stringMatching(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/),
      user: { id, name: 'Fay', email, user_type: 2, user_role_id: 2 },
      device_token: expect.stringMatching(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/),
    });
  });

  it('answers a wrong password and an unknown email with the same bytes', async () => {
    const { email } = await newMember(server);
    const wrong = await new ApiClient(server).post('user/login', { email, password: 'not the password' });
    const unknown = await new ApiClient(server).post('user/login', {
      email: 'nobody@example.org',
      password: 'not the password',
    });
    expect(wrong.status).toBe(422);
    expect(unknown.status).toBe(422);
    expect(wrong.text).toBe('{"message":"These credentials do not match our records."}');
    expect(unknown.text).toBe(wrong.text);
  });

  it('requires the email and the password', async () => {
    const res = await new ApiClient(server).post('user/login', {});
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The email field is required.');
  });
});

describe('Profile', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('shows the account, and changes the name', async () => {
    const { client, email, id } = await newMember(server, 'Gus');
    const profile = await client.get('user/profile');
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual({
      data: {
        id,
        name: 'Gus',
        email,
        user_type: 2,
        user_role_id: 2,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        time_zone: null,
        speaks: [],
        subscription: {
          status: 'none',
          trial_ends_at: null,
          current_period_end: null,
          cancel_at_period_end: false,
          trial_used: false,
          offer: 'trial',
        },
      },
    });
    const renamed = await client.put('user/profile', { name: '  Gustav ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({
      message: 'Your profile has been updated.',
      data: expect.objectContaining({ name: 'Gustav' }),
    });
    expect(((await client.get('user/profile')).body.data as { name: string }).name).toBe('Gustav');
    expect((await client.put('user/profile', { name: '' })).body).toEqual({
      message: 'The name field is required.',
      errors: { name: ['The name field is required.'] },
    });
  });

  it('changes the password, ends older sessions and hands out a new token', async () => {
    const { client, email, password } = await newMember(server);
    const wrong = await client.post('user/change-password', {
      current_password: 'nope nope',
      password: 'new password 1',
      confirm_password: 'new password 1',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ current_password: ['The current password is not correct.'] });

    const mismatch = await client.post('user/change-password', {
      current_password: password,
      password: 'new password 1',
      confirm_password: 'other',
    });
    expect(mismatch.body.errors).toEqual({ confirm_password: ['The password confirmation does not match.'] });

    const changed = await client.post<{ message: string; token: string }>('user/change-password', {
      current_password: password,
      password: 'new password 1',
      confirm_password: 'new password 1',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.message).toBe('Your password has been changed.');
    expect((await client.get('user/profile')).status).toBe(401);
    expect((await client.withToken(changed.body.token).get('user/profile')).status).toBe(200);
    expect((await new ApiClient(server).post('user/login', { email, password })).status).toBe(422);
    expect(
      (await new ApiClient(server).post('user/login', { email, password: 'new password 1' })).status,
    ).toBe(200);
  });
});
