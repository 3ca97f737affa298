import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { LISTENER_NAME } from '../content/catalogue/catalogue-broadcast';
import { openDatabase } from '../platform/database/prepare';
import { MIGRATIONS } from '../platform/database/schema';
import { ApiClient, newMember } from './api-client';
import { bookForm, fixture, form } from './fixtures';
import { assertBuilt, boot, stop } from './built-server';
import { databaseUrlFor, onPostgres, testDatabaseConfig } from './database';
import { tempStorage, type TestServer } from './harness';
import { startS3, type TestS3 } from './s3';
import { eventually } from './eventually';

const asServer = (url: string) => ({ baseUrl: url }) as TestServer;

/**
 * Two built server processes, each with its own STORAGE_DIR, on one PostgreSQL database and one S3 bucket
 * (s3rver) behave as one. Runs in the PostgreSQL pass of
 * the suite (TEST_DATABASE_URL); SQLite serves one process per STORAGE_DIR and refuses a second.
 */
(onPostgres ? describe : describe.skip)('Two instances on one PostgreSQL', () => {
  const storageDir = tempStorage();
  let databaseUrl: string;
  let s3: TestS3;
  const children: ChildProcess[] = [];
  let a: TestServer;
  let b: TestServer;
  let adminA: ApiClient;
  let adminB: ApiClient;

  beforeAll(async () => {
    assertBuilt();
    databaseUrl = (await databaseUrlFor(storageDir))!;
    s3 = await startS3(`${storageDir}-s3`);
    // Both boot at once on an empty database: the migrations run under the advisory lock.
    const env = (dir: string) => ({
      STORAGE_DIR: dir,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '4',
      ...s3.env,
    });
    const [first, second] = await Promise.all([boot(env(tempStorage())), boot(env(tempStorage()))]);
    children.push(first.child, second.child);
    a = asServer(first.url);
    b = asServer(second.url);
    const db = await openDatabase(await testDatabaseConfig(storageDir));
    try {
      const ran = await db.query<Array<{ name: string }>>('SELECT name FROM migrations');
      expect(ran.map((row) => row.name).sort()).toEqual(MIGRATIONS.map((m) => new m().name).sort());
    } finally {
      await db.destroy();
    }
    // Each printed a setup code, and each code works on either instance: an address a member has is
    // refused after the code is accepted (and the code stays), then one code creates the administrator.
    const codes = [first, second].map(({ output }) => /Setup code: (\S+)/.exec(output())?.[1] ?? 'none');
    const { email: memberEmail } = await newMember(a);
    const email = 'ops@example.org';
    const password = 'an admin password 1';
    const setup = (on: TestServer, code: string, address: string) =>
      new ApiClient(on).post<{ errors?: Record<string, string[]> }>('setup', {
        code,
        name: 'Ops',
        email: address,
        password,
      });
    for (const [code, on] of [
      [codes[0], b],
      [codes[1], a],
    ] as const) {
      const probe = await setup(on, code, memberEmail);
      expect([probe.status, Object.keys(probe.body.errors ?? {})]).toEqual([422, ['email']]);
    }
    expect((await setup(b, codes[0], email)).status).toBe(200);
    expect((await setup(a, codes[1], 'other@example.org')).status).toBe(409);
    const login = await new ApiClient(a).post<{ token: string }>('user/login', { email, password });
    adminA = new ApiClient(a, login.body.token);
    adminB = new ApiClient(b, login.body.token);
  });
  afterAll(async () => {
    await Promise.all(children.map(stop));
    await s3?.close();
  });

  it('accepts on B a token issued by A', async () => {
    expect((await adminB.get('user/profile')).status).toBe(200);
  });

  /**
   * Polls B until `ok`, as a client would, and logs how long A's notice took to show there. Neither the
   * page cache nor the media index expires on its own, so only the notice can make a change appear; how
   * fast is logged, not checked (a loaded machine may take longer, docs/scaling.md).
   */
  async function seenOnB(what: string, ok: () => Promise<boolean>): Promise<void> {
    console.log(`${what}: seen on B after ${await eventually(ok, what)} ms`);
  }

  const titlesOn = async (server: TestServer) => {
    const res = await new ApiClient(server).get<{ data: Array<{ title: string }> }>('guest/list-book');
    return res.status === 200 ? res.body.data.map((book) => book.title) : [];
  };

  it("serves on B a book just added through A, once A's notice arrives (guest API and page)", async () => {
    expect(await titlesOn(b)).not.toContain('Shared Freshness');
    // The catalogue's pages are now in B's page cache, a filtered one included.
    await fetch(`${b.baseUrl}/lingostory`);
    expect(await (await fetch(`${b.baseUrl}/books?lang=it`)).text()).not.toContain('Shared Freshness');
    const created = await adminA.post<{ data: { book_code: string } }>(
      'admin/book',
      bookForm({ title: 'Shared Freshness', language: 'it' }),
    );
    expect(created.status).toBe(200);
    await seenOnB('the new book in the guest API', async () =>
      (await titlesOn(b)).includes('Shared Freshness'),
    );
    await seenOnB('the new book on /lingostory', async () =>
      (await (await fetch(`${b.baseUrl}/lingostory`)).text()).includes('Shared Freshness'),
    );
    for (const path of ['/books?lang=it', '/learn/it'])
      await seenOnB(`the new book on ${path}`, async () =>
        (await (await fetch(`${b.baseUrl}${path}`)).text()).includes('Shared Freshness'),
      );
    const sitemap = await (await fetch(`${b.baseUrl}/sitemap.xml`)).text();
    expect(sitemap).toContain(`/book-detail/${created.body.data.book_code}</loc>`);
    expect(sitemap).toContain('/learn/it</loc>');
  });

  it('locks an account on both after five failed logins spread over A and B', async () => {
    const email = `spread-${Date.now()}@example.org`;
    await new ApiClient(a).post('user/signup', {
      name: 'Spread',
      email,
      password: 'the right password',
      password_confirmation: 'the right password',
    });
    for (const server of [a, b, a, b, a]) {
      const wrong = await new ApiClient(server).post('user/login', { email, password: 'a wrong password' });
      expect(wrong.status).toBe(422);
    }
    for (const server of [b, a]) {
      const locked = await new ApiClient(server).post('user/login', {
        email,
        password: 'the right password',
      });
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({
        message:
          'Too many failed sign-in attempts for this account. Please try again later or reset your password.',
      });
    }
  });

  it('serves from B, byte for byte, a clip uploaded through A', async () => {
    const book = await adminA.post<{ data: { id: number } }>('admin/book', bookForm({ title: 'Clip Book' }));
    const chapter = await adminA.post<{ data: { id: number } }>('admin/chapter', {
      title: 'One',
      chapter_no: 1,
      book_id: book.body.data.id,
    });
    const added = await adminA.post<{ data: { line_audio: string } }>(
      'admin/phrase',
      form({
        chapter_id: chapter.body.data.id,
        phrase: 'Hi',
        dictionary: 'a — b',
        line_audio: [fixture('clip.mp3'), 'clip.mp3'],
      }),
    );
    expect(added.status).toBe(200);
    // B has classified the new clip once A's notice arrives; until then it asks for a signature.
    const url = `${b.baseUrl}${added.body.data.line_audio}`;
    await seenOnB('the new clip served', async () => (await fetch(url, { method: 'HEAD' })).status === 200);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(
      Buffer.from(await fixture('clip.mp3').arrayBuffer()),
    );
  });

  it("stops serving on B a book's media deleted through A, once A's notice arrives", async () => {
    const created = await adminA.post<{ data: { id: number; book_code: string; image_path: string } }>(
      'admin/book',
      bookForm({ title: 'Gone Everywhere' }),
    );
    const cover = `${b.baseUrl}${created.body.data.image_path}`;
    await seenOnB('the new cover served', async () => (await fetch(cover)).status === 200);
    expect((await adminA.delete(`admin/book/${created.body.data.book_code}`)).status).toBe(200);
    await seenOnB('the deleted cover refused', async () => (await fetch(cover)).status === 404);
    expect((await fetch(cover)).headers.get('cache-control')).toBe('no-store');
  });

  it('gives phrases appended at once on A and B distinct positions', async () => {
    const book = await adminA.post<{ data: { id: number } }>('admin/book', bookForm({ title: 'Race Book' }));
    const chapter = await adminA.post<{ data: { id: number } }>('admin/chapter', {
      title: 'One',
      chapter_no: 1,
      book_id: book.body.data.id,
    });
    const id = chapter.body.data.id;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? adminA : adminB).post(
          'admin/phrase',
          form({
            chapter_id: id,
            phrase: `P${i}`,
            dictionary: 'a — b',
            line_audio: [fixture('clip.mp3'), 'clip.mp3'],
          }),
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const list = await adminB.get<{ data: { phrases: Array<{ position: number }> } }>(
      `admin/phrase?chapter_id=${id}`,
    );
    expect(list.body.data.phrases.map((p) => p.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('clears its caches after its notification connection drops, since notices sent meanwhile are lost', async () => {
    expect(await titlesOn(b)).not.toContain('While Away');
    const admin = new Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      // A change nobody announces (as if its notice were lost): B's cached list does not show it...
      await admin.query(`INSERT INTO books (book_code, title, author, narrated_by, description, difficulty, hours,
        minutes, cover_path, sample_audio_path, sample_text) VALUES ('while-away', 'While Away', 'a', 'n', 'd',
        'Easy', 0, 5, 'covers/none', 'samples/none.mp3', 't')`);
      expect(await titlesOn(b)).not.toContain('While Away');
      // ...until its listening connection is cut and comes back, which clears everything.
      const cut = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
        [LISTENER_NAME],
      );
      expect(cut.rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    await seenOnB('the unannounced book after the reconnection', async () =>
      (await titlesOn(b)).includes('While Away'),
    );
  });
});

(onPostgres ? describe : describe.skip)('Two instances booting at once with INIT_ADMIN_*', () => {
  const children: ChildProcess[] = [];
  afterAll(() => Promise.all(children.map(stop)));

  it('both start: one creates the administrator, the other finds them', async () => {
    assertBuilt();
    const storageDir = tempStorage();
    const env = {
      DATABASE_URL: (await databaseUrlFor(storageDir))!,
      DATABASE_POOL_SIZE: '4',
      INIT_ADMIN_EMAIL: 'first@example.org',
      INIT_ADMIN_PASSWORD: 'an admin password 1',
    };
    const settled = await Promise.allSettled([
      boot({ ...env, STORAGE_DIR: tempStorage() }),
      boot({ ...env, STORAGE_DIR: tempStorage() }),
    ]);
    // One that started is stopped after the test even when the other did not.
    const booted = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    children.push(...booted.map(({ child }) => child));
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
    const created = booted.filter(({ output }) => output().includes('Created the first administrator'));
    expect(created).toHaveLength(1);
    for (const { url } of booted) {
      const login = await new ApiClient(asServer(url)).post<{ user: { user_type: number } }>('user/login', {
        email: env.INIT_ADMIN_EMAIL,
        password: env.INIT_ADMIN_PASSWORD,
      });
      expect([login.status, login.body.user?.user_type]).toEqual([200, 1]);
    }
  });
});
