import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { DemoSeedService } from '../seed/demo-seed.service';
import { MIGRATIONS } from '../platform/database/schema';
import { openDatabase } from '../platform/database/prepare';
import { sql } from '../platform/database/sql';
import { PageCache } from '../http/page-cache';
import { readDemoCatalogue } from '../seed/demo-catalogue';
import { rawGet, startServer, tempStorage, type TestServer } from './harness';
import { mediaFiles } from './fixtures';
import { onPostgres, tableNames, testDatabaseConfig } from './database';

describe('Foundation API', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const get = (path: string, init?: RequestInit) => fetch(server.baseUrl + path, init);

  it('answers the health check', async () => {
    const res = await get('/api/v1/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown API path with a JSON 404 message', async () => {
    const res = await get('/api/v1/no-such-thing?x=1');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ message: 'No API route matches GET /api/v1/no-such-thing.' });
  });

  it('answers a malformed JSON body with a 400 message and no stack trace', async () => {
    const res = await get('/api/v1/user/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"broken":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: expect.stringMatching(/JSON/) });
  });

  it('answers a JSON list body and an undecodable address with clear messages', async () => {
    const list = await get('/api/v1/user/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[1,2]',
    });
    expect(list.status).toBe(422);
    expect(await list.json()).toEqual({
      message: 'The request body must be a JSON object or a form, not a list.',
    });
    const escape = await get('/api/v1/guest/book-detail/%E0%A4%A');
    expect(escape.status).toBe(400);
    expect(await escape.json()).toEqual({ message: 'The address contains an invalid escape sequence.' });
  });

  it('tags every response with a request id', async () => {
    const res = await get('/api/v1/health');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lists no books on an empty installation', async () => {
    const res = await get('/api/v1/guest/list-book');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: [] });
  });

  it('answers an unknown book code with a 404 message', async () => {
    const res = await get('/api/v1/guest/book-detail/no-such-book');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Book not found.' });
  });

  it('creates the schema from migrations on an empty database', async () => {
    const db = server.app.get(DataSource);
    expect(await tableNames(db)).toEqual([
      'app_meta',
      'app_passwords',
      'appearance',
      'audio_measures',
      'audiobook_builds',
      'book_coverage',
      'book_words',
      'books',
      'chapter_words',
      'chapters',
      'coverage_runs',
      'dictation_attempts',
      'dictionaries',
      'dictionary_entries',
      'fsrs_parameters',
      'imports',
      'listening_events',
      'media_trash',
      'migrations',
      'password_reset_tokens',
      'phrase_marks',
      'phrase_translations',
      'phrases',
      'rate_hits',
      'reading_progress',
      'review_logs',
      'saved_words',
      'stripe_events',
      'subscriptions',
      'users',
      'word_form_sets',
      'word_forms',
      'word_status_batches',
      'word_statuses',
      'word_trash',
    ]);
    const ran = await db.query<Array<{ name: string }>>('SELECT name FROM migrations ORDER BY id');
    expect(ran.map((m) => m.name)).toEqual(MIGRATIONS.map((migration) => new migration().name));
    if (!onPostgres) {
      const sqlite = new Database(join(server.storageDir, 'lingonovel.sqlite'), { readonly: true });
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      sqlite.close();
    }
  });

  it('can undo every migration, down to an empty schema', async () => {
    const storageDir = tempStorage();
    const db = await openDatabase(await testDatabaseConfig(storageDir));
    try {
      for (let i = 0; i < MIGRATIONS.length; i++) await db.undoLastMigration();
      expect(await tableNames(db)).toEqual(['migrations']);
      await db.runMigrations();
      expect(await tableNames(db)).toContain('phrases');
      expect(await db.query(`SELECT name FROM migrations`)).toHaveLength(MIGRATIONS.length);
    } finally {
      await db.destroy();
    }
  });

  it('turns on foreign keys, so deleting a book removes its chapters and phrases', async () => {
    const db = server.app.get(DataSource);
    if (!onPostgres) {
      expect(await db.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
      expect(await db.query('PRAGMA synchronous')).toEqual([{ synchronous: 1 }]); // NORMAL
      expect(await db.query('PRAGMA busy_timeout')).toEqual([{ timeout: 5000 }]);
    }
    await sql(
      db,
      `INSERT INTO books (book_code, title, author, narrated_by, description, difficulty, hours, minutes,
      cover_path, sample_audio_path, sample_text) VALUES ('fk', 'FK', 'a', 'n', 'd', 'Easy', 0, 5, 'covers/x', 'samples/x.mp3', 't')`,
    );
    const [{ id: bookId }] = await db.query<Array<{ id: number }>>(
      `SELECT id FROM books WHERE book_code = 'fk'`,
    );
    await sql(db, `INSERT INTO chapters (book_id, title, chapter_no) VALUES (?, 'One', 1)`, [bookId]);
    const [{ id: chapterId }] = await sql<Array<{ id: number }>>(
      db,
      `SELECT id FROM chapters WHERE book_id = ?`,
      [bookId],
    );
    await sql(
      db,
      `INSERT INTO phrases (chapter_id, position, phrase, dictionary, audio_path) VALUES (?, 1, 'p', 'd', 'lines/x.mp3')`,
      [chapterId],
    );
    await sql(db, `DELETE FROM books WHERE id = ?`, [bookId]);
    expect(await db.query(`SELECT COUNT(*) AS n FROM chapters`)).toEqual([{ n: 0 }]);
    expect(await db.query(`SELECT COUNT(*) AS n FROM phrases`)).toEqual([{ n: 0 }]);
  });
});

describe('Demo content', () => {
  let server: TestServer;
  const demo = readDemoCatalogue();

  beforeAll(async () => {
    server = await startServer();
    await server.app.get(DemoSeedService).seedOnce();
  });
  afterAll(() => server.close());

  const get = (path: string, init?: RequestInit) => fetch(server.baseUrl + path, init);
  const count = async (table: string) =>
    (await server.app.get(DataSource).query<[{ n: number }]>(`SELECT COUNT(*) AS n FROM ${table}`))[0].n;

  it('seeds every demo book with its chapters, phrases and media', async () => {
    const res = await get('/api/v1/guest/list-book');
    const { data } = (await res.json()) as { data: Array<Record<string, unknown>> };
    expect(data.map((b) => b.title).sort()).toEqual(demo.books.map((b) => b.title).sort());
    expect(demo.books.length).toBeGreaterThanOrEqual(6);
    const phrases = demo.books.flatMap((b) => b.chapters.flatMap((c) => c.phrases));
    expect(await count('phrases')).toBe(phrases.length);
    for (const book of data) {
      expect(book).toEqual(
        expect.objectContaining({
          book_code: expect.stringMatching(/^[a-z0-9-]+$/),
          image_path: expect.stringMatching(/^\/media\/covers\/[0-9a-f]{32}-640\.webp$/),
          sample_audio: expect.stringMatching(/^\/media\/samples\/[0-9a-f]{32}\.mp3$/),
        }),
      );
    }
  });

  it('answers book-detail with the whole book record', async () => {
    const first = demo.books[0];
    const list = (
      (await (await get('/api/v1/guest/list-book')).json()) as {
        data: Array<{ title: string; book_code: string }>;
      }
    ).data;
    const code = list.find((b) => b.title === first.title)!.book_code;
    const res = await get(`/api/v1/guest/book-detail/${code}`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Record<string, unknown> };
    expect(data).toEqual(
      expect.objectContaining({
        book_code: code,
        title: first.title,
        author: first.author,
        narrated_by: first.narrated_by,
        description: first.description,
        difficulty: first.difficulty,
        // The demo's books have chapters with clips: their length is the clips', the typed one is kept.
        length_source: 'clips',
        typed_hours: first.hours,
        typed_minutes: first.minutes,
        sample_text: first.sample_text,
      }),
    );
  });

  it('serves the demo media with Range, ETag and long-lived caching', async () => {
    const { data } = (await (await get('/api/v1/guest/list-book')).json()) as {
      data: Array<{ sample_audio: string }>;
    };
    const url = data[0].sample_audio;
    const whole = await get(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const size = (await whole.arrayBuffer()).byteLength;

    const part = await get(url, { headers: { Range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);

    const beyond = await get(url, { headers: { Range: `bytes=${size + 10}-` } });
    expect(beyond.status).toBe(416);
    // A refusal of one client's Range is kept by no cache, and does not pass for the image.
    expect(beyond.headers.get('cache-control')).toBe('no-store');
    expect(beyond.headers.get('content-type') ?? '').not.toMatch(/image/);
    // The file handler's own error reaches the client as a plain answer, never Express's stack trace.
    expect(await beyond.text()).not.toMatch(/node_modules|\n\s+at |Error:/);

    const etag = whole.headers.get('etag')!;
    const again = await rawGet(server.baseUrl + url, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('compresses JSON when the client accepts gzip', async () => {
    const res = await rawGet(server.baseUrl + '/api/v1/guest/list-book', { 'Accept-Encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    const { data } = JSON.parse(gunzipSync(res.body).toString('utf8')) as { data: unknown[] };
    expect(data).toHaveLength(demo.books.length);
  });

  it('seeds exactly once, even after a restart on the same data', async () => {
    const books = await count('books');
    const credentials = await server.app.get(DemoSeedService).seedOnce();
    expect(credentials?.email).toBe('admin@demo.lingonovel');
    expect(await count('books')).toBe(books);

    const storageDir = server.storageDir;
    const stored = await mediaFiles(server);
    await server.close(true);
    server = await startServer(storageDir);
    const again = await server.app.get(DemoSeedService).seedOnce();
    expect(again).toEqual(credentials);
    expect(await count('books')).toBe(books);
    expect(await count('users')).toBe(1);
    expect(await mediaFiles(server)).toEqual(stored);
  });
});

// The folder's own sweep; the bucket's, with the same one-hour rule, is in media-store.e2e-spec.ts.
(process.env.TEST_MEDIA_STORE === 's3' ? describe.skip : describe)('Media sweep at boot', () => {
  it('removes temp files and media that no record points to once an hour old, and keeps the rest', async () => {
    const storageDir = tempStorage();
    let server = await startServer(storageDir);
    await server.app.get(DemoSeedService).seedOnce();
    writeFileSync(join(storageDir, 'tmp', 'half-upload'), 'partial');
    writeFileSync(join(storageDir, 'media', 'lines', 'orphan.mp3'), 'nobody points here');
    // Older than an hour: an orphan. A younger file may be another instance's upload, its row not yet written.
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(join(storageDir, 'media', 'lines', 'orphan.mp3'), twoHoursAgo, twoHoursAgo);
    writeFileSync(join(storageDir, 'media', 'lines', 'young.mp3'), 'its row is on its way');
    const kept = readdirSync(join(storageDir, 'media', 'covers')).length;
    await server.close(true);

    server = await startServer(storageDir);
    try {
      expect(readdirSync(join(storageDir, 'tmp'))).toEqual([]);
      expect(readdirSync(join(storageDir, 'media', 'lines'))).not.toContain('orphan.mp3');
      expect(readdirSync(join(storageDir, 'media', 'lines'))).toContain('young.mp3');
      expect(readdirSync(join(storageDir, 'media', 'covers'))).toHaveLength(kept);
      expect(statSync(join(storageDir, 'media', 'covers')).isDirectory()).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('Guest API cache', () => {
  it('keeps one entry per canonical path, whatever spellings clients use', async () => {
    const server = await startServer();
    try {
      await server.app.get(DemoSeedService).seedOnce();
      const cache = server.app.get(PageCache);
      const code = (
        (await (await fetch(`${server.baseUrl}/api/v1/guest/list-book`)).json()) as {
          data: Array<{ book_code: string }>;
        }
      ).data[0].book_code;
      await fetch(`${server.baseUrl}/api/v1/guest/book-detail/${code}`);
      expect(cache.size).toBe(2);
      const spellings = [
        '/api/v1/guest/LIST-BOOK',
        '/api/v1/guest/list-book/',
        `/api/v1/guest/book-detail/%${code.charCodeAt(0).toString(16)}${code.slice(1)}`,
        `/api/v1/guest/book-detail/${code.toUpperCase()}`,
      ];
      for (const path of spellings) {
        const res = await fetch(server.baseUrl + path);
        await res.arrayBuffer();
      }
      expect(cache.size).toBe(2);
    } finally {
      await server.close();
    }
  });
});
