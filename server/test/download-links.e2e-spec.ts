import { LOGIN_FAILURES_ALLOWED } from '../accounts/auth/auth.service';
import { SignedLinks } from '../platform/common/signed-links';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook } from './books';
import { startServer, type TestServer } from './harness';
import { resetDetails, TestSmtp } from './smtp';

const BAD_LINK = { message: 'This download link has expired or is not valid. Ask for a new one.' };
const REVOKED = {
  message:
    "This download link was made before the account's password changed. Sign in again and ask for a new one.",
};

/**
 * Signed download links (docs/api.md "Downloads"): they carry the member's token version, so a password
 * change or reset ends them with the member's sessions; and a valid one wins whatever credential comes
 * with it.
 */
describe('Signed download links: revoked with the password, and deciding alone', () => {
  let server: TestServer;
  let code: string;
  const smtp = new TestSmtp();

  beforeAll(async () => {
    server = await startServer(undefined, { SMTP_URL: await smtp.start() });
    ({ code } = await makeBook((await newAdmin(server)).client));
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  /** A member's link, as the download button asks for it, as a path under /api/v1. */
  async function linkOf(client: ApiClient, format = 'epub'): Promise<string> {
    const res = await client.post<{ data: { url: string } }>(`downloads/${code}/link`, { format });
    expect(res.status).toBe(200);
    return res.body.data.url.replace(/^\/api\/v1\//, '');
  }

  /** Follows a link as a browser does (no token unless given); the status and, for an error, its body. */
  async function follow(path: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${server.baseUrl}/api/v1/${path}`, {
      headers: { Accept: 'application/json', ...headers },
    });
    const body = Buffer.from(await res.arrayBuffer());
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      json: res.headers.get('content-type')?.includes('json')
        ? (JSON.parse(body.toString()) as unknown)
        : null,
    };
  }

  it("stops working once its member's password changes; another member's link still works", async () => {
    const member = await newMember(server);
    const other = await newMember(server);
    const [mine, theirs] = [await linkOf(member.client), await linkOf(other.client)];
    expect(mine).toMatch(new RegExp(`^downloads/${code}/epub\\?exp=\\d+&sig=[\\w-]+&u=${member.id}&v=0$`));
    expect((await follow(mine)).status).toBe(200);

    const changed = await member.client.post<{ token: string }>('user/change-password', {
      current_password: member.password,
      password: 'another good password',
      confirm_password: 'another good password',
    });
    expect(changed.status).toBe(200);
    expect(await follow(mine)).toEqual({ status: 403, type: expect.stringContaining('json'), json: REVOKED });
    // A link made since, with the new session, works; the other member never changed anything.
    const fresh = await linkOf(new ApiClient(server).withToken(changed.body.token));
    expect(fresh).toMatch(/&v=1$/);
    expect((await follow(fresh)).status).toBe(200);
    expect((await follow(theirs)).status).toBe(200);
  });

  it('stops working once the password is reset with an emailed token', async () => {
    const member = await newMember(server);
    const link = await linkOf(member.client, 'audiobook');
    // Followed before the audiobook is made, a link gets 503 and a page saying so: anything but a refusal.
    expect([200, 503]).toContain((await follow(link)).status);
    await new ApiClient(server).get(`user/password-recovery-token?email=${encodeURIComponent(member.email)}`);
    const { token } = resetDetails(await smtp.waitFor(member.email));
    const reset = await new ApiClient(server).post('user/reset-password-using-token', {
      verification_token: token,
      password: 'a brand new password',
      confirm_password: 'a brand new password',
    });
    expect(reset.status).toBe(200);
    expect(await follow(link)).toEqual({ status: 403, type: expect.stringContaining('json'), json: REVOKED });
  });

  it('refuses a link in the format made before token versions, and one with its version altered', async () => {
    const member = await newMember(server);
    // Exactly what the server signed until links carried the member's token version.
    const { url } = server.app
      .get(SignedLinks)
      .sign('download', `${code}\nepub\n${member.id}`, `downloads/${code}/epub`);
    expect(await follow(`${url}&u=${member.id}`)).toEqual({
      status: 403,
      type: expect.stringContaining('json'),
      json: BAD_LINK,
    });
    expect((await follow(`${url}&u=${member.id}&v=0`)).status).toBe(403);
    const link = await linkOf(member.client);
    for (const altered of [link.replace(/&v=0$/, '&v=1'), link.replace(/&v=0$/, ''), `${link}0`])
      expect([altered, (await follow(altered)).json]).toEqual([altered, BAD_LINK]);
  });

  it('wins whatever credential comes with it, valid or not; a link that is not valid is a 403 all the same', async () => {
    const member = await newMember(server);
    const made = await member.client.post<{ data: { password: string } }>('user/app-passwords', {
      name: 'Thorium',
    });
    expect(made.status).toBe(200);
    const link = await linkOf(member.client);
    const basic = (password: string) => ({
      Authorization: `Basic ${Buffer.from(`${member.email}:${password}`).toString('base64')}`,
    });
    for (const [credential, headers] of [
      ['a bearer token that is not valid', { Authorization: 'Bearer not.a.token' }],
      ['a wrong app password', basic('aaaa-bbbb-cccc-dddd-eeee-ffff')],
      ['malformed Basic credentials', { Authorization: 'Basic !!!' }],
      ['the right app password', basic(made.body.data.password)],
    ] as const)
      expect([credential, (await follow(link, headers)).status]).toEqual([credential, 200]);

    // Without a link, the same bad token is told so (not given the sample) ...
    const bearer = { Authorization: 'Bearer not.a.token' };
    expect((await follow(`downloads/${code}/epub`, bearer)).status).toBe(401);
    // ... and a link that is not valid is refused even beside a valid session.
    const altered = link.replace(/sig=[\w-]{4}/, 'sig=AAAA');
    const login = await new ApiClient(server).post<{ token: string }>('user/login', {
      email: member.email,
      password: member.password,
    });
    const session = { Authorization: `Bearer ${login.body.token}` };
    expect(await follow(altered, session)).toEqual({
      status: 403,
      type: expect.stringContaining('json'),
      json: BAD_LINK,
    });
  });

  /** A member with an app password, their bearer token, and the Authorization headers for each. */
  async function readingApp() {
    const member = await newMember(server);
    const made = await member.client.post<{ data: { password: string } }>('user/app-passwords', {
      name: 'Thorium',
    });
    expect(made.status).toBe(200);
    const login = await new ApiClient(server).post<{ token: string }>('user/login', {
      email: member.email,
      password: member.password,
    });
    const basic = (password: string) => ({
      Authorization: `Basic ${Buffer.from(`${member.email}:${password}`).toString('base64')}`,
    });
    return {
      member,
      bearer: { Authorization: `Bearer ${login.body.token}` },
      right: basic(made.body.data.password),
      wrong: basic('aaaa-bbbb-cccc-dddd-eeee-ffff'),
    };
  }

  it('counts no wrong app password that comes beside a valid link in the Basic failure windows', async () => {
    const { member, right, wrong } = await readingApp();
    const link = await linkOf(member.client);
    for (let i = 0; i <= LOGIN_FAILURES_ALLOWED; i += 1) expect((await follow(link, wrong)).status).toBe(200);
    // Had they counted, the account's window would be full: this failure would be a 429.
    const epub = `downloads/${code}/epub`;
    expect(await follow(epub, wrong)).toEqual({
      status: 401,
      type: expect.stringContaining('json'),
      json: {
        message:
          'These credentials do not match our records. Use your email and an app password made on your profile.',
      },
    });
    expect((await follow(epub, right)).status).toBe(200);
  });

  it("takes a client's own `v` without a link's other parts for no link: the credential beside it decides", async () => {
    const { bearer, right } = await readingApp();
    const epub = `downloads/${code}/epub?v=2`;
    expect([(await follow(epub, bearer)).status, (await follow(epub, right)).status]).toEqual([200, 200]);
    // The audiobook too: 202 while it is made (polled as the page does, and waited for, so that no build
    // outlives the test), then 200; never refused as a link.
    const started = Date.now();
    for (;;) {
      const { status } = await follow(`downloads/${code}/audiobook?v=2`, bearer);
      if (status === 200) break;
      expect(status).toBe(202);
      if (Date.now() - started > 90_000) throw new Error('the audiobook was not made within 90 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});
