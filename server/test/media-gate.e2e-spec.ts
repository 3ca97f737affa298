import type { LoggerService } from '@nestjs/common';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { MEDIA_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import { SignedLinks } from '../platform/common/signed-links';
import { clipUrl } from '../platform/media/media-urls';
import { MediaIndex } from '../content/access/media-index';
import { ApiClient, newAdmin } from './api-client';
import { makeBook } from './books';
import { bookForm, fixture, form, mediaExists, purgeAfterGrace } from './fixtures';
import { rawGet, startServer, type TestServer } from './harness';
import { scaled } from '../../scripts/test-limits.cjs';
import { eventually } from './eventually';

type Chapter = { data: { phrases: Array<{ audio: string }> } };

/** Collects what the app logs as errors, to check that a failure it recovers from is still reported. */
class ErrorLog implements LoggerService {
  readonly errors: string[] = [];
  log(): void {}
  warn(): void {}
  error(message: unknown): void {
    this.errors.push(String(message));
  }
}

describe('The clip gate fails closed', () => {
  let server: TestServer;
  let admin: ApiClient;
  let code: string;
  let chapterIds: number[];
  const log = new ErrorLog();
  let failing = false;

  beforeAll(async () => {
    server = await startServer(undefined, {}, log);
    admin = (await newAdmin(server)).client;
    ({ code, chapterIds } = await makeBook(admin));
    // The index's one query fails while `failing` is set, as it would with the database unreachable;
    // every other query goes through.
    const db = server.app.get(DataSource);
    const query = db.query.bind(db);
    jest
      .spyOn(db, 'query')
      .mockImplementation((sql: string, ...rest: unknown[]) =>
        failing && sql.includes('AS first_chapter_no') && sql.includes('FROM phrases p')
          ? Promise.reject(new Error('connection refused'))
          : (query as (...args: unknown[]) => Promise<unknown>)(sql, ...rest),
      );
  });
  afterAll(async () => {
    failing = false;
    await server.close();
  });

  const visitor = () => new ApiClient(server);
  const clipsOf = async (chapterNo: number, client = visitor()) =>
    (await client.get<Chapter>(`guest/book/${code}/chapter/${chapterNo}`)).body.data.phrases.map(
      (phrase) => phrase.audio,
    );
  const status = async (url: string) => (await rawGet(server.baseUrl + url)).status;

  it('asks for a signature for every clip, free ones too, once a refresh has failed, and says so in the log', async () => {
    const [free] = await clipsOf(1);
    expect(free).toMatch(/^\/media\/lines\/\w+\.mp3$/);
    expect(await status(free)).toBe(200);
    const [locked] = await clipsOf(2, admin);
    failing = true;
    try {
      // A catalogue change whose refresh fails: the index can no longer tell which clips are free.
      const added = await admin.post(
        'admin/phrase',
        form({
          chapter_id: chapterIds[0],
          phrase: 'Encore.',
          dictionary: 'encore — again',
          line_audio: [fixture('clip.mp3'), 'clip.mp3'],
        }),
      );
      expect(added.status).toBe(200);
      const refused = await rawGet(server.baseUrl + free);
      expect([refused.status, refused.headers['cache-control'], refused.body.toString()]).toEqual([
        403,
        'no-store',
        'This clip needs a fresh link: reload its chapter.',
      ]);
      expect(await status(locked.split('?')[0])).toBe(403);
      expect(await status(locked)).toBe(200);
      // A file that is not there is a 404 all the same.
      expect(await status('/media/lines/0123456789abcdef0123456789abcdef.mp3')).toBe(404);
      expect(log.errors.some((line) => /clips are free.*connection refused/s.test(line))).toBe(true);

      // A reader of the free chapter still plays: the API hands out signed links, kept by no shared cache.
      const res = await visitor().get<Chapter>(`guest/book/${code}/chapter/1`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body.data.phrases).toHaveLength(3);
      for (const url of res.body.data.phrases.map((phrase) => phrase.audio)) {
        expect(url).toMatch(/^\/media\/lines\/\w+\.mp3\?exp=\d+&sig=[\w-]+$/);
        const clip = await rawGet(server.baseUrl + url, { Range: 'bytes=0-9' });
        expect([clip.status, clip.headers['cache-control']]).toEqual([206, 'private, no-store']);
      }
    } finally {
      failing = false;
    }
    // The index retries on its own: the free clip is public again without any further change.
    // Its retries wait 1, 2, 4… s: the wait after a long failing stretch on a loaded machine may be long.
    await eventually(async () => (await status(free)) === 200, 'the free clip public again', scaled(60_000));
    expect((await rawGet(server.baseUrl + free)).headers['cache-control']).toBe('public, max-age=86400');
    expect(await status(locked.split('?')[0])).toBe(403);
    const again = await visitor().get<Chapter>(`guest/book/${code}/chapter/1`);
    expect(again.body.data.phrases.every((phrase) => !phrase.audio.includes('?'))).toBe(true);
  });

  it('stays closed from a failed refresh until one works', async () => {
    const index = server.app.get(MediaIndex);
    const [free] = await clipsOf(1);
    failing = true;
    try {
      await expect(index.refresh()).rejects.toThrow('connection refused');
      expect(index.clip(free.replace('/media/', ''))).toBe('unknown');
      expect(await status(free)).toBe(403);
    } finally {
      failing = false;
    }
    await index.refresh();
    expect(index.clip(free.replace('/media/', ''))).toBe('free');
    expect(await status(free)).toBe(200);
  });

  it('asks for a signature for a clip it has not classified, and serves it signed', async () => {
    const store = server.app.get<symbol, MediaStore>(MEDIA_STORE);
    const file = join(server.storageDir, 'tmp', 'stray');
    copyFileSync(join(__dirname, 'fixtures', 'clip.mp3'), file);
    const key = 'lines/00000000000000000000000000000001.mp3';
    await store.put(key, file, 'audio/mpeg');
    expect(server.app.get(MediaIndex).clip(key)).toBe('unknown');
    const bare = await rawGet(`${server.baseUrl}/media/${key}`);
    expect([bare.status, bare.headers['cache-control']]).toEqual([403, 'no-store']);
    const signed = clipUrl(server.app.get(SignedLinks), key, true);
    const ok = await rawGet(server.baseUrl + signed);
    expect([ok.status, ok.headers['cache-control']]).toEqual([200, 'private, no-store']);
  });
});

describe('Deleted media disappears at once', () => {
  let server: TestServer;
  let admin: ApiClient;
  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
  });
  afterAll(() => server.close());

  type Book = { id: number; book_code: string; image_path: string; sample_audio: string };
  const gone = async (url: string) => {
    const res = await rawGet(server.baseUrl + url);
    return [res.status, res.headers['cache-control']];
  };
  const coverSizes = (url: string) => [320, 640, 960].map((w) => url.replace(/-\d+\.webp$/, `-${w}.webp`));
  const bookWithClips = async (title: string) => {
    const book = (await admin.post<{ data: Book }>('admin/book', bookForm({ title }))).body.data;
    const ids: number[] = [];
    for (const n of [1, 2]) {
      const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: `C${n}`,
        chapter_no: n,
        book_id: book.id,
      });
      ids.push(chapter.body.data.id);
      await admin.post(
        'admin/phrase',
        form({
          chapter_id: chapter.body.data.id,
          phrase: 'Hola.',
          dictionary: 'hola — hello',
          line_audio: [fixture('clip.mp3'), 'c.mp3'],
        }),
      );
    }
    const clips = async (n: number) =>
      (await admin.get<Chapter>(`guest/book/${book.book_code}/chapter/${n}`)).body.data.phrases.map(
        (phrase) => phrase.audio,
      );
    return { book, chapterIds: ids, free: (await clips(1))[0], locked: (await clips(2))[0] };
  };

  it("answers 404 for a deleted book's cover, sample and clips, signed or not, while the files stay for backups", async () => {
    const { book, free, locked } = await bookWithClips('Gone Book');
    const urls = [...coverSizes(book.image_path), book.sample_audio, free, locked];
    for (const url of urls) expect([url, (await rawGet(server.baseUrl + url)).status]).toEqual([url, 200]);
    expect((await admin.delete(`admin/book/${book.book_code}`)).status).toBe(200);
    for (const url of [...urls, locked.split('?')[0]])
      expect([url, ...(await gone(url))]).toEqual([url, 404, 'no-store']);
    expect(await Promise.all(urls.map((url) => mediaExists(server, url)))).toEqual(urls.map(() => true));
    await purgeAfterGrace(server);
    expect(await Promise.all(urls.map((url) => mediaExists(server, url)))).toEqual(urls.map(() => false));
    for (const url of urls) expect((await rawGet(server.baseUrl + url)).status).toBe(404);
  });

  it("answers 404 for a deleted chapter's clips and a deleted phrase's clip at once", async () => {
    const { chapterIds, free, locked } = await bookWithClips('Gone Chapter');
    expect((await admin.delete(`admin/chapter/${chapterIds[1]}`)).status).toBe(200);
    expect(await gone(locked)).toEqual([404, 'no-store']);
    expect(await mediaExists(server, locked)).toBe(true);
    const phrases = await admin.get<{ data: { phrases: Array<{ id: number }> } }>(
      `admin/phrase?chapter_id=${chapterIds[0]}`,
    );
    expect((await admin.delete(`admin/phrase/${phrases.body.data.phrases[0].id}`)).status).toBe(200);
    expect(await gone(free)).toEqual([404, 'no-store']);
    expect(await mediaExists(server, free)).toBe(true);
  });

  it('answers 404 for replaced media too, and serves what replaced it', async () => {
    const { book, chapterIds, free } = await bookWithClips('Replaced');
    const updated = await admin.post<{ data: Book }>(
      `admin/book/${book.book_code}?_method=put`,
      bookForm({ title: 'Replaced' }),
    );
    expect(updated.status).toBe(200);
    for (const url of [...coverSizes(book.image_path), book.sample_audio])
      expect([url, ...(await gone(url))]).toEqual([url, 404, 'no-store']);
    for (const url of [updated.body.data.image_path, updated.body.data.sample_audio])
      expect((await rawGet(server.baseUrl + url)).status).toBe(200);
    const phrases = await admin.get<{ data: { phrases: Array<{ id: number }> } }>(
      `admin/phrase?chapter_id=${chapterIds[0]}`,
    );
    const replaced = await admin.post<{ data: { line_audio: string } }>(
      `admin/phrase/${phrases.body.data.phrases[0].id}?_method=put`,
      form({ phrase: 'Otra.', dictionary: 'otra — another', line_audio: [fixture('clip.mp3'), 'd.mp3'] }),
    );
    expect(await gone(free)).toEqual([404, 'no-store']);
    expect((await rawGet(server.baseUrl + replaced.body.data.line_audio)).status).toBe(200);
  });
});

describe('A missing media file', () => {
  let server: TestServer;
  let code: string;
  beforeAll(async () => {
    server = await startServer();
    ({ code } = await makeBook((await newAdmin(server)).client));
  });
  afterAll(() => server.close());

  it('answers 404 that no cache may keep, whatever the kind of file, signed or not', async () => {
    const signed = clipUrl(server.app.get(SignedLinks), 'lines/0123456789abcdef0123456789abcdef.mp3', true);
    for (const url of [
      '/media/covers/0123456789abcdef0123456789abcdef-640.webp',
      '/media/samples/0123456789abcdef0123456789abcdef.mp3',
      '/media/lines/0123456789abcdef0123456789abcdef.mp3',
      signed,
      '/media/nothing-here',
    ]) {
      const res = await rawGet(server.baseUrl + url);
      expect([url, res.status, res.headers['cache-control']]).toEqual([url, 404, 'no-store']);
    }
  });

  it('keeps the caching of the files that are there', async () => {
    const [free] = (
      await new ApiClient(server).get<Chapter>(`guest/book/${code}/chapter/1`)
    ).body.data.phrases.map((phrase) => phrase.audio);
    expect((await rawGet(server.baseUrl + free)).headers['cache-control']).toBe('public, max-age=86400');
    const book = await new ApiClient(server).get<{ data: { image_path: string } }>(
      `guest/book-detail/${code}`,
    );
    expect((await rawGet(server.baseUrl + book.body.data.image_path)).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
  });
});
