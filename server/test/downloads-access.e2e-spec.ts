import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { PhrasesRepository } from '../content/catalogue/repository/phrases.repository';
import { MEDIA_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook } from './books';
import { controlClock, MINUTE } from './clock';
import { chapterMarks } from './download-files';
import { startServer, type TestServer } from './harness';
import { StripeStandIn } from './stripe-stand-in';
import { stripeEnv, webhooks } from './stripe-webhooks';
import { unzip } from './zips';

const work = mkdtempSync(join(tmpdir(), 'lingonovel-downloads-'));
const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

/** Who asks: the headers they send (a bearer token, Basic, or nothing). */
type Caller = Record<string, string>;
const basic = (email: string, password: string): Caller => ({
  Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`,
});

describe('Downloads: whole book or sample, per plan and per credential', () => {
  let server: TestServer;
  const standIn = new StripeStandIn();
  let code: string;
  let admin: ApiClient;
  const { setPlan } = webhooks(() => server);

  /** A session token's header, as a signed-in browser sends it. */
  async function bearer({ email, password }: { email: string; password: string }): Promise<Caller> {
    const login = await new ApiClient(server).post<{ token: string }>('user/login', { email, password });
    return { Authorization: `Bearer ${login.body.token}` };
  }

  /** Every download answer, whatever it is, must be private and unkept. */
  async function download(path: string, caller: Caller = {}, extra: Record<string, string> = {}) {
    const res = await fetch(`${server.baseUrl}/api/v1/${path}`, { headers: { ...caller, ...extra } });
    const body = Buffer.from(await res.arrayBuffer());
    expect([path, res.status, res.headers.get('cache-control')]).toEqual([
      path,
      res.status,
      'private, no-store',
    ]);
    return {
      status: res.status,
      headers: res.headers,
      body,
      json: () => JSON.parse(body.toString()) as unknown,
    };
  }

  /** The chapters inside an EPUB: its chapter XHTML documents. */
  async function epubChapters(caller: Caller, path = `downloads/${code}/epub`) {
    const res = await download(path, caller);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/epub+zip');
    const names = (await unzip(res.body)).map((item) => item.name);
    const chapters = names.filter((name) => /chapter-\d+\.xhtml$/.test(name)).length;
    return { chapters, disposition: res.headers.get('content-disposition') };
  }

  /** The M4B once ready (following 202 + Retry-After, faster), and its chapter marks. */
  async function m4b(caller: Caller, path = `downloads/${code}/audiobook`) {
    const started = Date.now();
    for (;;) {
      const res = await download(path, caller);
      if (res.status === 200) {
        expect(res.headers.get('content-type')).toBe('audio/mp4');
        expect(res.headers.get('accept-ranges')).toBe('bytes');
        expect(Number(res.headers.get('content-length'))).toBe(res.body.length);
        const chapters = await chapterMarks(res.body, work);
        return { chapters, bytes: res.body.length, disposition: res.headers.get('content-disposition') };
      }
      expect(res.status).toBe(202);
      expect(res.json()).toEqual({ message: expect.any(String) });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      if (Date.now() - started > 90_000) throw new Error('the audiobook was not made within 90 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  beforeAll(async () => {
    server = await startServer(undefined, stripeEnv(await standIn.start()));
    admin = (await newAdmin(server)).client;
    ({ code } = await makeBook(admin));
  });
  afterAll(async () => {
    await server.close();
    await standIn.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** Each reader, and what they get: the whole book, or the sample (and chapter 2's subtitles' status). */
  const readers: Array<[string, () => Promise<Caller>, boolean, number]> = [
    ['a visitor', () => Promise.resolve({}), false, 401],
    ['a member with no plan', async () => bearer(await newMember(server)), false, 403],
    ...(
      [
        ['trialing', 30 * DAY, true],
        ['active', 30 * DAY, true],
        ['past_due', 30 * DAY, false],
        ['canceled', 3600, true],
        ['canceled', -3600, false],
      ] as const
    ).map(([status, offset, whole]): [string, () => Promise<Caller>, boolean, number] => [
      `a member whose plan is ${status}${status === 'canceled' ? (offset < 0 ? ' and ended' : ' with time left') : ''}`,
      async () => {
        const member = await newMember(server);
        await setPlan(member.id, status, now() + offset);
        return bearer(member);
      },
      whole,
      whole ? 200 : 403,
    ]),
    ['an administrator', async () => bearer(await newAdmin(server)), true, 200],
  ];

  it.each(readers)('%s', async (_who, makeCaller, whole, chapterTwo) => {
    const caller = await makeCaller();
    expect(await epubChapters(caller)).toEqual({
      chapters: whole ? 3 : 1,
      disposition: `attachment; filename="${code}${whole ? '' : '-sample'}.epub"`,
    });
    expect(await m4b(caller)).toEqual({
      chapters: whole ? 3 : 1,
      bytes: expect.any(Number),
      disposition: `attachment; filename="${code}${whole ? '' : '-sample'}.m4b"`,
    });
    expect((await download(`downloads/${code}/chapter/1/subtitles.vtt`, caller)).status).toBe(200);
    for (const kind of ['vtt', 'lrc']) {
      const second = await download(`downloads/${code}/chapter/2/subtitles.${kind}`, caller);
      expect(second.status).toBe(chapterTwo);
      if (chapterTwo === 401) {
        expect(second.json()).toEqual({ message: 'Sign in to read this chapter.' });
        // A reading app that sent nothing learns it may sign in with an app password.
        expect(second.headers.get('www-authenticate')).toBe('Basic realm="Lingonovel"');
      }
      if (chapterTwo === 403)
        expect(second.json()).toEqual({
          message: 'This chapter is part of Premium Plus. Start your free 30-day trial to read on.',
        });
    }
  });

  it('answers 503 with a message when the server has no ffmpeg to measure or encode with', async () => {
    // A new book whose clips' lengths are not kept: an upload measures its clip at once (docs/formats.md,
    // "Exact lengths"), so what it kept is forgotten, as a server that had no ffmpeg at upload would be.
    const fresh = (await makeBook(admin)).code;
    await server.app.get(DataSource).query('DELETE FROM audio_measures');
    const before = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = join(work, 'no-such-ffmpeg');
    try {
      // The download button's link says so at once, before the browser is sent anywhere.
      for (const format of ['epub', 'audiobook']) {
        const link = await admin.post(`downloads/${fresh}/link`, { format });
        expect([format, link.status, link.body]).toEqual([
          format,
          503,
          { message: expect.stringContaining('sudo apt-get install -y ffmpeg') },
        ]);
      }
      for (const path of [
        `downloads/${fresh}/chapter/1/subtitles.vtt`,
        `downloads/${fresh}/epub`,
        `downloads/${fresh}/audiobook`,
      ]) {
        const res = await download(path);
        expect([path, res.status, res.json()]).toEqual([
          path,
          503,
          { message: expect.stringContaining('sudo apt-get install -y ffmpeg') },
        ]);
      }
    } finally {
      if (before === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = before;
    }
  });

  it("gives a reading app's app password what its member may read, until revoked or the plan lapses", async () => {
    const { client, email, id } = await newMember(server);
    await setPlan(id, 'active', now() + 30 * DAY);
    const made = await client.post<{ data: { id: number; password: string } }>('user/app-passwords', {
      name: 'Thorium',
    });
    const app = basic(email, made.body.data.password);
    expect((await epubChapters(app)).chapters).toBe(3);
    expect((await download(`downloads/${code}/chapter/2/subtitles.vtt`, app)).status).toBe(200);

    const wrong = await download(`downloads/${code}/epub`, basic(email, 'aaaa-bbbb-cccc-dddd-eeee-ffff'));
    expect([wrong.status, wrong.headers.get('www-authenticate')]).toEqual([401, 'Basic realm="Lingonovel"']);

    await setPlan(id, 'canceled', now() - 60);
    expect((await epubChapters(app)).chapters).toBe(1);
    expect((await download(`downloads/${code}/chapter/2/subtitles.vtt`, app)).status).toBe(403);

    await client.delete(`user/app-passwords/${made.body.data.id}`);
    const revoked = await download(`downloads/${code}/epub`, app);
    expect([revoked.status, revoked.headers.get('www-authenticate')]).toEqual([
      401,
      'Basic realm="Lingonovel"',
    ]);
  });

  it('signs a link naming the member, refused when altered, expired or foreign, and checked again when followed', async () => {
    const { client, id } = await newMember(server);
    await setPlan(id, 'active', now() + 30 * DAY);
    const link = async (format: string) => {
      const res = await client.post<{ data: { url: string; expires_at: string } }>(`downloads/${code}/link`, {
        format,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      return res.body.data;
    };
    const epub = await link('epub');
    expect(epub.url).toMatch(
      new RegExp(`^/api/v1/downloads/${code}/epub\\?exp=\\d+&sig=[\\w-]+&u=${id}&v=0$`),
    );
    expect(Date.parse(epub.expires_at) - Date.now()).toBeGreaterThan(4 * MINUTE);
    const path = (url: string) => url.replace(/^\/api\/v1\//, '');
    expect((await epubChapters({}, path(epub.url))).chapters).toBe(3);
    expect((await m4b({}, path((await link('audiobook')).url))).chapters).toBe(3);

    const other = await newMember(server);
    const refused = { message: 'This download link has expired or is not valid. Ask for a new one.' };
    for (const altered of [
      epub.url.replace(/sig=[\w-]{4}/, 'sig=AAAA'),
      epub.url.replace(`u=${id}`, `u=${other.id}`),
      epub.url.replace('/epub?', '/audiobook?'),
      epub.url.replace(/&u=\d+/, ''),
      epub.url.replace(/exp=\d+/, (exp) => `exp=${Number(exp.slice(4)) + 60}`),
    ]) {
      const res = await download(path(altered));
      expect([altered, res.status, res.json()]).toEqual([altered, 403, refused]);
    }

    const clock = controlClock(server);
    try {
      clock.advance(6 * MINUTE);
      expect((await download(path(epub.url))).status).toBe(403);
    } finally {
      clock.restore();
    }

    await setPlan(id, 'past_due', now() + 30 * DAY);
    expect((await epubChapters({}, path((await link('epub')).url))).chapters).toBe(1);

    const visitor = await new ApiClient(server).post(`downloads/${code}/link`, { format: 'epub' });
    expect([visitor.status, visitor.headers.get('cache-control')]).toEqual([401, 'private, no-store']);
    const bad = await client.post(`downloads/${code}/link`, { format: 'pdf' });
    expect([bad.status, bad.body]).toEqual([
      422,
      {
        message: 'The format must be epub or audiobook.',
        errors: { format: ['The format must be epub or audiobook.'] },
      },
    ]);
    expect((await client.post('downloads/nope/link', { format: 'epub' })).status).toBe(404);
  });

  it('follows the link’s member only: not on another book, and whatever Basic comes with it', async () => {
    const member = await newMember(server);
    await setPlan(member.id, 'active', now() + 30 * DAY);
    const other = (await makeBook(admin)).code;
    const signed = await member.client.post<{ data: { url: string } }>(`downloads/${code}/link`, {
      format: 'epub',
    });
    const path = signed.body.data.url.replace(/^\/api\/v1\//, '');
    const elsewhere = await download(path.replace(`downloads/${code}/`, `downloads/${other}/`));
    expect([elsewhere.status, elsewhere.json()]).toEqual([
      403,
      { message: 'This download link has expired or is not valid. Ask for a new one.' },
    ]);
    // Another member's app password (no plan) beside the link: the link names who is downloading.
    const stranger = await newMember(server);
    const made = await stranger.client.post<{ data: { password: string } }>('user/app-passwords', {
      name: 'Other app',
    });
    expect((await epubChapters(basic(stranger.email, made.body.data.password), path)).chapters).toBe(3);
    // A wrong one is not even read: a valid link wins (download-links.e2e-spec.ts).
    expect((await epubChapters(basic(stranger.email, 'aaaa-bbbb-cccc-dddd-eeee-ffff'), path)).chapters).toBe(
      3,
    );
  });

  it('answers a missing clip when the link is asked for, for the edition the member gets', async () => {
    const fresh = await makeBook(admin);
    const [lost] = await server.app.get(PhrasesRepository).ofChapters([fresh.chapterIds[2]]);
    await server.app.get<symbol, MediaStore>(MEDIA_STORE).delete([lost.audioPath]);
    const whole = await admin.post(`downloads/${fresh.code}/link`, { format: 'epub' });
    expect([whole.status, whole.body]).toEqual([
      422,
      {
        message: `The EPUB cannot be made: 1 of the book's files is missing from storage (chapter 3, phrase 1 (${lost.audioPath})). Upload them again first.`,
      },
    ]);
    // The same words as the download itself (EpubExport.prepare). The sample has chapter 1 only: nothing of
    // it is missing.
    const { client } = await newMember(server);
    expect((await client.post(`downloads/${fresh.code}/link`, { format: 'epub' })).status).toBe(200);
  });
});
