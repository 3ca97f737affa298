import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { BooksRepository } from '../catalogue/repository/books.repository';
import { AudiobookBuild } from '../formats/audiobook-build.entity';
import { Audiobooks, AUDIOBOOK_FFMPEG_MISSING, type AudiobookAnswer } from '../formats/audiobook/audiobooks';
import { DERIVED_STORE } from '../media/store/create-stores';
import type { MediaStore } from '../media/store/media-store';
import { ApiClient, newAdmin } from './api-client';
import { bookForm, form, loseMedia, mediaBytes } from './fixtures';
import { onPostgres } from './database';
import { startServer, tempStorage, type TestServer } from './harness';

const run = promisify(execFile);
const RATE = 44_100;

/** Samples of audio in a file, decoded the way a player would: mono at 44.1 kHz. */
function decodedSamples(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', [
      '-v',
      'error',
      '-i',
      file,
      '-map',
      '0:a:0',
      '-ac',
      '1',
      '-ar',
      String(RATE),
      '-f',
      's16le',
      '-',
    ]);
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(bytes / 2) : reject(new Error(`ffmpeg exit ${code}`))));
  });
}

describe('Audiobook M4B: built once per version, exact chapter marks', () => {
  let server: TestServer;
  let admin: ApiClient;
  let audiobooks: Audiobooks;
  let derived: MediaStore;
  const work = mkdtempSync(join(tmpdir(), 'audiobook-spec-'));
  const clips: Record<string, Blob> = {};

  /** Short clips of three kinds, 0.3 s to 1.2 s, each its own tone. */
  beforeAll(async () => {
    const kinds: Array<[string, string[]]> = [
      ['mp3', ['-c:a', 'libmp3lame', '-b:a', '64k']],
      ['wav', ['-c:a', 'pcm_s16le']],
      ['ogg', ['-c:a', 'libvorbis']],
    ];
    for (const [index, [ext, codec]] of kinds.entries())
      for (const seconds of [0.3, 0.7, 1.2]) {
        const file = join(work, `clip-${seconds}.${ext}`);
        const rate = ext === 'mp3' ? 22_050 : ext === 'ogg' ? 48_000 : RATE;
        await run('ffmpeg', [
          ...[
            '-v',
            'error',
            '-f',
            'lavfi',
            '-i',
            `sine=frequency=${300 + index * 200}:duration=${seconds}:sample_rate=${rate}`,
          ],
          ...codec,
          '-y',
          file,
        ]);
        clips[`${seconds}.${ext}`] = new Blob([readFileSync(file)]);
      }
    server = await startServer();
    admin = (await newAdmin(server)).client;
    audiobooks = server.app.get(Audiobooks);
    audiobooks.rebuildDelayMs = 300;
    derived = server.app.get<symbol, MediaStore>(DERIVED_STORE);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** A book of 3 chapters × 3 phrases, clips of mixed kinds and lengths; its code and phrases' clips. */
  async function makeBook(title: string) {
    const book = await admin.post<{ data: { id: number; book_code: string } }>(
      'admin/book',
      bookForm({ title }),
    );
    const chapters: Array<{ title: string; phrases: Array<{ id: number; audio: string }> }> = [];
    const names = Object.keys(clips);
    for (const n of [1, 2, 3]) {
      const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: `Chapitre ${n} = « ${title} »`,
        chapter_no: n,
        book_id: book.body.data.id,
      });
      const phrases: Array<{ id: number; audio: string }> = [];
      for (const k of [0, 1, 2]) {
        const name = names[(n * 3 + k * 4) % names.length];
        const phrase = await admin.post<{ data: { id: number; line_audio: string } }>(
          'admin/phrase',
          form({
            chapter_id: chapter.body.data.id,
            phrase: `Phrase ${n}.${k}`,
            dictionary: 'mot — word',
            line_audio: [clips[name], `clip.${name.split('.').pop()}`],
          }),
        );
        if (phrase.status !== 200) throw new Error(JSON.stringify(phrase.body));
        phrases.push({ id: phrase.body.data.id, audio: phrase.body.data.line_audio });
      }
      chapters.push({ title: `Chapitre ${n} = « ${title} »`, phrases });
    }
    return { code: book.body.data.book_code, chapters };
  }

  const bookOf = async (code: string) => (await server.app.get(BooksRepository).byCode(code))!;

  /** Asks until the M4B is ready (the way a client follows Retry-After, faster). */
  async function ready(code: string, edition: 'full' | 'sample' = 'full', ms = 60_000) {
    const started = Date.now();
    for (;;) {
      const answer = await audiobooks.get(await bookOf(code), edition);
      if (answer.ready) return { ...answer, waitedMs: Date.now() - started };
      if (Date.now() - started > ms) throw new Error(`not ready within ${ms} ms: ${answer.message}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function saved(key: string): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of await audiobooks.read(key)) chunks.push(chunk as Buffer);
    const file = join(work, `${Math.random().toString(36).slice(2)}.m4b`);
    writeFileSync(file, Buffer.concat(chunks));
    return file;
  }

  async function probe(file: string) {
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_chapters',
      '-show_streams',
      '-show_format',
      file,
    ]);
    return JSON.parse(stdout) as {
      chapters: Array<{ start_time: string; end_time: string; tags: { title: string } }>;
      streams: Array<{ codec_type: string; codec_name: string; disposition: { attached_pic: number } }>;
      format: { tags: Record<string, string> };
    };
  }

  /** Each chapter's length in samples, from its clips decoded one by one. */
  async function chapterSamples(chapters: Array<{ phrases: Array<{ audio: string }> }>): Promise<number[]> {
    const lengths: number[] = [];
    for (const chapter of chapters) {
      let samples = 0;
      for (const phrase of chapter.phrases) {
        const file = join(work, phrase.audio.split('/').pop()!.replace(/\?.*$/, ''));
        writeFileSync(file, await mediaBytes(server, phrase.audio));
        samples += await decodedSamples(file);
      }
      lengths.push(samples);
    }
    return lengths;
  }

  let first: { code: string; chapters: Awaited<ReturnType<typeof makeBook>>['chapters']; key: string };

  it('answers "not ready" at first, then an M4B whose chapter marks are the decoded clips', async () => {
    const book = await makeBook('Le Livre Sonore');
    // Asked through the download route, as a reading app would: 202 and when to come back.
    const asked = await admin.get(`downloads/${book.code}/audiobook`);
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ message: expect.stringMatching(/being made/) });
    expect(Number(asked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const again = await audiobooks.get(await bookOf(book.code), 'full');
    expect(again).toEqual({
      ready: false,
      retryAfterSeconds: expect.any(Number),
      message: expect.any(String),
    });
    const done = await ready(book.code);
    expect(done.key).toMatch(new RegExp(`^audiobooks/${book.code}-full-[0-9a-f]{64}\\.m4b$`));
    expect(done.filename).toBe(`${book.code}.m4b`);
    first = { ...book, key: done.key };

    const file = await saved(done.key);
    const probed = await probe(file);
    const lengths = await chapterSamples(book.chapters);
    let start = 0;
    expect(probed.chapters).toHaveLength(3);
    probed.chapters.forEach((chapter, i) => {
      expect(chapter.tags.title).toBe(book.chapters[i].title);
      expect(Math.abs(Number(chapter.start_time) - start / RATE)).toBeLessThan(0.05);
      start += lengths[i];
      expect(Math.abs(Number(chapter.end_time) - start / RATE)).toBeLessThan(0.05);
    });
    expect(Math.abs((await decodedSamples(file)) - start) / RATE).toBeLessThan(0.05);
    const audio = probed.streams.filter((s) => s.codec_type === 'audio');
    expect(audio.map((s) => s.codec_name)).toEqual(['aac']);
    expect(probed.streams.filter((s) => s.disposition.attached_pic === 1).map((s) => s.codec_name)).toEqual([
      'mjpeg',
    ]);
    expect(probed.format.tags).toMatchObject({
      title: 'Le Livre Sonore',
      artist: 'Claire Dubois',
      composer: 'Marc Lefèvre',
      genre: 'Audiobook',
    });
    expect(done.bytes).toBe((await derived.head(done.key))!.size);
    // A range, as the download route asks for one.
    const chunks: Buffer[] = [];
    for await (const chunk of await audiobooks.read(done.key, { start: 4, end: 11 }))
      chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString('latin1')).toBe('ftypM4B ');
  }, 90_000);

  it('makes the sample edition of the free chapter only', async () => {
    const done = await ready(first.code, 'sample');
    expect(done.filename).toBe(`${first.code}-sample.m4b`);
    const probed = await probe(await saved(done.key));
    expect(probed.chapters.map((c) => c.tags.title)).toEqual([first.chapters[0].title]);
    const [length] = await chapterSamples(first.chapters.slice(0, 1));
    expect(Math.abs(Number(probed.chapters[0].end_time) - length / RATE)).toBeLessThan(0.05);
  }, 60_000);

  /** Waits until the derived store no longer holds `key` (replaced by a newer build). */
  async function gone(key: string, ms = 60_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline && (await derived.head(key))) await new Promise((r) => setTimeout(r, 100));
    expect(await derived.head(key)).toBeNull();
  }

  it('never serves the old file after an edit', async () => {
    const runs = audiobooks.buildsRun;
    const removed = first.chapters[1].phrases.shift()!;
    expect((await admin.delete(`admin/phrase/${removed.id}`)).status).toBe(200);
    const answer = await audiobooks.get(await bookOf(first.code), 'full');
    expect(answer).toMatchObject({ ready: false });
    const rebuilt = await ready(first.code);
    expect(rebuilt.key).not.toBe(first.key);
    await gone(first.key);
    const probed = await probe(await saved(rebuilt.key));
    const lengths = await chapterSamples(first.chapters);
    expect(Math.abs(Number(probed.chapters[2].start_time) - (lengths[0] + lengths[1]) / RATE)).toBeLessThan(
      0.05,
    );
    // The debounced rebuild after the edit found the file current; the sample's version did not change.
    await new Promise((r) => setTimeout(r, 1000));
    expect(audiobooks.buildsRun - runs).toBe(1);
    expect((await audiobooks.get(await bookOf(first.code), 'sample')).ready).toBe(true);
    first.key = rebuilt.key;
  }, 90_000);

  it('rebuilds after an edit on its own, once the book has been quiet for the delay', async () => {
    const runs = audiobooks.buildsRun;
    const sample = await ready(first.code, 'sample');
    const removed = first.chapters[0].phrases.pop()!;
    expect((await admin.delete(`admin/phrase/${removed.id}`)).status).toBe(200);
    // No request: both editions (the sample holds chapter 1, which changed) are made again.
    await gone(first.key);
    await gone(sample.key);
    const [full, again] = [
      await audiobooks.get(await bookOf(first.code), 'full'),
      await audiobooks.get(await bookOf(first.code), 'sample'),
    ];
    expect([full.ready, again.ready]).toEqual([true, true]);
    expect(audiobooks.buildsRun - runs).toBe(2);
    first.key = (full as { key: string }).key;
  }, 90_000);

  let many: { code: string; key: string };

  it('starts one build for many requests at once', async () => {
    const book = await makeBook('Many At Once');
    const runs = audiobooks.buildsRun;
    const answers = await Promise.all(
      Array.from({ length: 6 }, async () => audiobooks.get(await bookOf(book.code), 'full')),
    );
    expect(answers.every((a) => !a.ready)).toBe(true);
    many = { code: book.code, key: (await ready(book.code)).key };
    expect(audiobooks.buildsRun - runs).toBe(1);
  }, 60_000);

  const rowOf = async (code: string, edition = 'full') =>
    (await server.app
      .get(DataSource)
      .getRepository(AudiobookBuild)
      .findOneBy({ bookId: (await bookOf(code)).id, edition: edition as 'full' }))!;

  it('leaves a live lease of another instance alone, and takes an expired one over', async () => {
    const book = await makeBook('Crashed Builder');
    const rows = server.app.get(DataSource).getRepository(AudiobookBuild);
    const { id } = await bookOf(book.code);
    await rows.insert({
      bookId: id,
      edition: 'full',
      state: 'building',
      version: '',
      buildingVersion: 'f'.repeat(64),
      leaseOwner: 'elsewhere',
      leaseUntilMs: Date.now() + 60_000,
    });
    const runs = audiobooks.buildsRun;
    expect((await audiobooks.get(await bookOf(book.code), 'full')).ready).toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    expect(audiobooks.buildsRun).toBe(runs);
    expect((await rowOf(book.code)).leaseOwner).toBe('elsewhere');
    // The other instance crashed: its lease runs out and is not renewed.
    await rows.update({ bookId: id, edition: 'full' }, { leaseUntilMs: Date.now() - 1 });
    await ready(book.code);
    expect(audiobooks.buildsRun - runs).toBe(1);
    expect(await rowOf(book.code)).toMatchObject({ state: 'ready', leaseOwner: null, buildingVersion: null });
  }, 60_000);

  it('records a failed build and does not try again at once', async () => {
    const book = await makeBook('Lost Clip');
    await loseMedia(server, book.chapters[2].phrases[2].audio);
    const runs = audiobooks.buildsRun;
    expect((await audiobooks.get(await bookOf(book.code), 'full')).ready).toBe(false);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await rowOf(book.code)).state !== 'failed')
      await new Promise((r) => setTimeout(r, 100));
    expect(await rowOf(book.code)).toMatchObject({
      state: 'failed',
      error: expect.any(String),
      fileKey: null,
    });
    const again: AudiobookAnswer = await audiobooks.get(await bookOf(book.code), 'full');
    expect(again).toEqual({
      ready: false,
      retryAfterSeconds: expect.any(Number),
      message: expect.stringMatching(/failed; it is tried again in \d+ s/),
    });
    expect(audiobooks.buildsRun - runs).toBe(1);
  }, 60_000);

  it("sweeps audiobook files no row points to: a deleted book's, a stray one", async () => {
    const stray = join(work, 'stray.m4b');
    writeFileSync(stray, 'not an audiobook');
    const strayKey = `audiobooks/gone-full-${'a'.repeat(64)}.m4b`;
    await derived.put(strayKey, stray);
    expect((await admin.delete(`admin/book/${many.code}`)).status).toBe(200);
    await gone(many.key, 10_000);
    await gone(strayKey, 10_000);
    const keys = (await derived.list('audiobooks/')).map((o) => o.key);
    expect(keys).toContain(first.key);
  }, 60_000);

  it('answers 503 with a clear message without ffmpeg, on the download route', async () => {
    const before = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = join(work, 'no-such-ffmpeg');
    try {
      await expect(audiobooks.get(await bookOf(first.code), 'full')).rejects.toMatchObject({
        kind: 'missing',
        message: AUDIOBOOK_FFMPEG_MISSING,
      });
      const answer = await admin.get(`downloads/${first.code}/audiobook`);
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ message: expect.stringMatching(/ffmpeg/) });
    } finally {
      if (before === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = before;
    }
    // With ffmpeg back, the same route serves the kept file.
    const served = await admin.get(`downloads/${first.code}/audiobook`);
    expect(served.status).toBe(200);
  });

  (onPostgres ? it : it.skip)(
    'starts one build when two instances on one database are asked at once',
    async () => {
      const second = await startServer(tempStorage(), {
        DATABASE_URL: server.config.databaseUrl!,
        ...(server.s3?.env ?? {}),
      });
      try {
        const other = second.app.get(Audiobooks);
        const book = await makeBook('Two Instances');
        const runs = audiobooks.buildsRun + other.buildsRun;
        const books = [server, second].map((s) => s.app.get(BooksRepository));
        const [a, b] = await Promise.all([
          audiobooks.get((await books[0].byCode(book.code))!, 'full'),
          other.get((await books[1].byCode(book.code))!, 'full'),
        ]);
        expect([a.ready, b.ready]).toEqual([false, false]);
        const done = await ready(book.code);
        const there = await other.get((await books[1].byCode(book.code))!, 'full');
        expect(there).toMatchObject({ ready: true, key: done.key });
        expect(audiobooks.buildsRun + other.buildsRun - runs).toBe(1);
      } finally {
        await second.close();
      }
    },
    90_000,
  );
});
