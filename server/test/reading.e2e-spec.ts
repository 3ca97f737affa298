import { DataSource } from 'typeorm';
import { MeasureAhead } from '../publishing/formats/measure-ahead';
import { Phrase } from '../content/catalogue/entities/phrase.entity';
import { ApiClient, newAdmin, newMember } from './api-client';
import { startServer, type TestServer } from './harness';
import { makeBook } from './books';
import { rawGet } from './harness';
import { StripeStandIn } from './stripe-stand-in';
import { stripeEnv, webhooks } from './stripe-webhooks';

describe('Who may read what: the whole access matrix, plans from signed webhooks', () => {
  let server: TestServer;
  const standIn = new StripeStandIn();
  let code: string;
  beforeAll(async () => {
    server = await startServer(undefined, stripeEnv(await standIn.start()));
    ({ code } = await makeBook((await newAdmin(server)).client));
  });
  afterAll(async () => {
    await server.close();
    await standIn.stop();
  });

  const now = () => Math.floor(Date.now() / 1000);
  const { setPlan } = webhooks(() => server);
  /** Each reader, and whether chapter 2 opens for them (chapter 1 always does). */
  const readers: Array<[string, () => Promise<ApiClient>, number]> = [
    ['a visitor', () => Promise.resolve(new ApiClient(server)), 401],
    ['a member with no plan', async () => (await newMember(server)).client, 403],
    ...(
      [
        ['trialing', 0, 200],
        ['active', 0, 200],
        ['canceled', 3600, 200],
        ['canceled', -3600, 403],
        ['past_due', 3600, 403],
        ['unpaid', 3600, 403],
      ] as const
    ).map(([status, offset, expected]): [string, () => Promise<ApiClient>, number] => [
      `a member whose plan is ${status}${offset < 0 ? ' and ended' : status === 'canceled' ? ' with time left' : ''}`,
      async () => {
        const { client, id } = await newMember(server);
        await setPlan(id, status, offset === 0 ? now() + 30 * 86400 : now() + offset);
        return client;
      },
      expected,
    ]),
    ['an administrator', async () => (await newAdmin(server)).client, 200],
  ];

  it.each(readers)('%s', async (_who, makeClient, chapterTwo) => {
    const client = await makeClient();
    const first = await client.get<{ data: { phrases: Array<{ audio: string }> } }>(
      `guest/book/${code}/chapter/1`,
    );
    expect(first.status).toBe(200);
    expect((await rawGet(server.baseUrl + first.body.data.phrases[0].audio)).status).toBe(200);

    const second = await client.get<{ data: { phrases: Array<{ audio: string }> } }>(
      `guest/book/${code}/chapter/2`,
    );
    expect(second.status).toBe(chapterTwo);
    expect(second.headers.get('cache-control')).toBe('private, no-store');
    if (chapterTwo !== 200) return;
    const signed = second.body.data.phrases[0].audio;
    expect((await rawGet(server.baseUrl + signed)).status).toBe(200);
    expect((await rawGet(server.baseUrl + signed.split('?')[0])).status).toBe(403);
    expect((await rawGet(server.baseUrl + signed.replace(/sig=[\w-]{4}/, 'sig=AAAA'))).status).toBe(403);
  });
});

describe('Reading API', () => {
  let server: TestServer;
  let admin: ApiClient;
  let code: string;
  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    ({ code } = await makeBook(admin));
  });
  afterAll(() => server.close());

  it('lists the chapters with counts, durations and the free mark', async () => {
    const res = await new ApiClient(server).get<{ data: Record<string, unknown> }>(
      `guest/book/${code}/chapters`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      book_code: code,
      title: 'Le Petit Voyage',
      chapters: [1, 2, 3].map((n) => ({
        chapter_no: n,
        title: `Chapitre ${n}`,
        phrase_count: 2,
        duration_ms: expect.any(Number),
        free: n === 1,
      })),
    });
    expect((await new ApiClient(server).get(`guest/book/nope/chapters`)).status).toBe(404);
  });

  it('gives chapter 1 to everyone, whatever token comes, with glossaries and public clips', async () => {
    for (const token of [undefined, 'garbage', 'a.b.c']) {
      const res = await new ApiClient(server, token).get<{
        data: { phrases: unknown[] } & Record<string, unknown>;
      }>(`guest/book/${code}/chapter/1`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        book_code: code,
        chapter_no: 1,
        free: true,
        prev: null,
        next: 2,
      });
      expect(res.body.data.phrases[0]).toMatchObject({
        position: 1,
        phrase: 'Bonjour. (1)',
        glossary: [
          { term: 'bonjour', meaning: 'hello' },
          { term: 'au revoir', meaning: 'goodbye' },
        ],
        audio: expect.stringMatching(/^\/media\/lines\/\w+\.mp3$/),
      });
    }
  });

  it('refuses chapter 2 to visitors (401) and to members without a plan (403), privately', async () => {
    const visitor = await new ApiClient(server).get(`guest/book/${code}/chapter/2`);
    expect(visitor.status).toBe(401);
    expect(visitor.body).toEqual({ message: 'Sign in to read this chapter.' });
    expect(visitor.headers.get('cache-control')).toBe('private, no-store');
    const bad = await new ApiClient(server, 'garbage').get(`guest/book/${code}/chapter/2`);
    expect(bad.status).toBe(401);
    const { client } = await newMember(server);
    const member = await client.get(`guest/book/${code}/chapter/2`);
    expect(member.status).toBe(403);
    expect(member.body).toEqual({
      message: 'This chapter is part of Premium Plus. Start your free 30-day trial to read on.',
    });
  });

  it('lets an administrator read chapter 2 with signed clips that nobody else can fetch bare', async () => {
    const res = await admin.get<{ data: { phrases: Array<{ audio: string }>; free: boolean } }>(
      `guest/book/${code}/chapter/2`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.body.data.free).toBe(false);
    const signed = res.body.data.phrases[0].audio;
    expect(signed).toMatch(/^\/media\/lines\/\w+\.mp3\?exp=\d+&sig=[\w-]+$/);
    const ok = await rawGet(server.baseUrl + signed, { Range: 'bytes=0-99' });
    expect(ok.status).toBe(206);
    expect(ok.headers['cache-control']).toBe('private, no-store');
    const bare = signed.split('?')[0];
    expect((await rawGet(server.baseUrl + bare)).status).toBe(403);
    expect((await rawGet(server.baseUrl + bare.replace('/lines/', '/lines/./'))).status).toBe(403);
    expect((await rawGet(server.baseUrl + bare.replace('lines', '%6cines'))).status).toBe(403);
    const altered = signed.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect((await rawGet(server.baseUrl + altered)).status).toBe(403);
    // Other spellings of the same bytes are refused too: the last character's spare bits, padding, zeros.
    const last = signed.slice(-1);
    const spare = signed.slice(0, -1) + (last === 'A' ? 'B' : last === 'B' ? 'A' : last === 'E' ? 'F' : 'E');
    expect((await rawGet(server.baseUrl + spare)).status).toBe(403);
    expect((await rawGet(server.baseUrl + signed + '=')).status).toBe(403);
    expect((await rawGet(server.baseUrl + signed.replace('exp=', 'exp=0'))).status).toBe(403);
    const later = signed.replace(/exp=(\d+)/, (_m, exp: string) => `exp=${Number(exp) + 3600}`);
    expect((await rawGet(server.baseUrl + later)).status).toBe(403);
  });

  it('answers unknown and non-canonical chapter numbers with 404', async () => {
    for (const n of ['9', '01', '0', '1.0', '-1', 'x']) {
      expect([n, (await new ApiClient(server).get(`guest/book/${code}/chapter/${n}`)).status]).toEqual([
        n,
        404,
      ]);
    }
  });

  it('keeps chapter 1 clips public and cacheable', async () => {
    const res = await new ApiClient(server).get<{ data: { phrases: Array<{ audio: string }> } }>(
      `guest/book/${code}/chapter/1`,
    );
    const clip = await rawGet(server.baseUrl + res.body.data.phrases[0].audio);
    expect(clip.status).toBe(200);
    expect(clip.headers['cache-control']).toBe('public, max-age=86400');
  });
});

describe('Reading progress', () => {
  let server: TestServer;
  let admin: ApiClient;
  let code: string;
  let chapterIds: number[];
  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    ({ code, chapterIds } = await makeBook(admin));
  });
  afterAll(() => server.close());

  it('records the phrase, answers its current position, and keeps the speed per book', async () => {
    const { client } = await newMember(server);
    expect((await client.get(`user/progress/${code}`)).status).toBe(404);
    const saved = await client.put<{ data: Record<string, unknown> }>('user/progress', {
      book_code: code,
      chapter_no: 1,
      position: 2,
      speed: 0.75,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({
      book_code: code,
      book_title: 'Le Petit Voyage',
      image_path: expect.stringMatching(/^\/media\/covers\/\w+-640\.webp$/),
      chapter_no: 1,
      chapter_title: 'Chapitre 1',
      position: 2,
      phrase_count: 2,
      speed: 0.75,
      updated_at: expect.any(String),
    });
    // A later save without a speed keeps it; a form post works too.
    const again = await client.put<{ data: { speed: number; position: number } }>(
      'user/progress',
      new URLSearchParams({ book_code: code, chapter_no: '1', position: '1' }),
    );
    expect(again.body.data).toMatchObject({ speed: 0.75, position: 1 });
    const list = await client.get<{ data: unknown[] }>('user/progress');
    expect(list.body.data).toHaveLength(1);
  });

  it('follows the phrase when the chapter is reordered', async () => {
    const { client } = await newMember(server);
    await client.put('user/progress', { book_code: code, chapter_no: 1, position: 2 });
    const first = chapterIds[0];
    const chapter = await admin.get<{ data: { phrases: Array<{ id: number }> } }>(
      `admin/phrase?chapter_id=${first}`,
    );
    const ids = chapter.body.data.phrases.map((p) => p.id);
    const reordered = await admin.put(`admin/chapter/${first}/phrase-order`, { ids: [...ids].reverse() });
    expect(reordered.status).toBe(200);
    const after = await client.get<{ data: { position: number } }>(`user/progress/${code}`);
    expect(after.body.data.position).toBe(1);
  });

  it('answers every bad value with a 422 on its field, unknown books and chapters with 404, locked ones 403', async () => {
    const { client } = await newMember(server);
    const put = (body: Record<string, unknown>) =>
      client.put<{ errors?: Record<string, string[]> }>('user/progress', body);
    for (const [body, field] of [
      [{ chapter_no: 1, position: 1 }, 'book_code'],
      [{ book_code: code, position: 1 }, 'chapter_no'],
      [{ book_code: code, chapter_no: 1 }, 'position'],
      [{ book_code: code, chapter_no: 1, position: 0 }, 'position'],
      [{ book_code: code, chapter_no: 1, position: 3 }, 'position'],
      [{ book_code: code, chapter_no: 1, position: 'x' }, 'position'],
      [{ book_code: code, chapter_no: 1, position: 1, speed: 0.4 }, 'speed'],
      [{ book_code: code, chapter_no: 1, position: 1, speed: 1.6 }, 'speed'],
      [{ book_code: code, chapter_no: 1, position: 1, speed: 'fast' }, 'speed'],
      [{ book_code: code, chapter_no: 0, position: 1 }, 'chapter_no'],
      [{ book_code: code, chapter_no: 1, position: 1e20 }, 'position'],
      [{ book_code: code, chapter_no: 1e20, position: 1 }, 'chapter_no'],
    ] as const) {
      const res = await put(body);
      expect([JSON.stringify(body), res.status, Object.keys(res.body.errors ?? {})]).toEqual([
        JSON.stringify(body),
        422,
        [field],
      ]);
    }
    expect((await put({ book_code: 'nope', chapter_no: 1, position: 1 })).status).toBe(404);
    expect((await put({ book_code: code, chapter_no: 9, position: 1 })).status).toBe(404);
    const locked = await put({ book_code: code, chapter_no: 2, position: 1 });
    expect(locked.status).toBe(403);
    expect(
      (await new ApiClient(server).put('user/progress', { book_code: code, chapter_no: 1, position: 1 }))
        .status,
    ).toBe(401);
  });
});

describe('Reading API cost', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('answers a 300-phrase chapter with one query per table, as many as a 2-phrase one', async () => {
    const admin = (await newAdmin(server)).client;
    const { code, chapterIds } = await makeBook(admin);
    const db = server.app.get(DataSource);
    const [template] = await db.getRepository(Phrase).findBy({ chapterId: chapterIds[0] });
    await db.getRepository(Phrase).insert(
      Array.from({ length: 298 }, (_, i) => ({
        chapterId: chapterIds[0],
        position: i + 3,
        phrase: `Phrase ${i + 3}`,
        dictionary: 'mot — word',
        audioPath: template.audioPath,
        audioMs: 1000,
      })),
    );
    // The query runner class of whichever database the suite runs on.
    const runner = db.createQueryRunner();
    const spy = jest.spyOn(Object.getPrototypeOf(runner) as { query: () => unknown }, 'query');
    await runner.release();
    // Clips the test's book saved are measured in the background a few seconds later (MeasureAhead), through
    // the same query runner: counted only once that work is done.
    const count = async (chapter: number) => {
      await server.app.get(MeasureAhead).idle();
      spy.mockClear();
      const res = await admin.get<{ data: { phrases: unknown[] } }>(`guest/book/${code}/chapter/${chapter}`);
      expect(res.status).toBe(200);
      return { phrases: res.body.data.phrases.length, queries: spy.mock.calls.length };
    };
    const big = await count(1);
    const small = await count(2);
    spy.mockRestore();
    expect(big.phrases).toBe(300);
    expect(small.phrases).toBe(2);
    // The token's user, the book, its chapters and the phrases: an administrator's plan is never read,
    // locked chapter or not.
    expect(big.queries).toBe(4);
    expect(small.queries).toBe(4);
  });
});
