import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { BooksRepository } from '../content/catalogue/repository/books.repository';
import { AudiobookBuild } from '../publishing/formats/audiobook-build.entity';
import {
  Audiobooks,
  AUDIOBOOK_FFMPEG_MISSING,
  type AudiobookAnswer,
} from '../publishing/formats/audiobook/audiobooks';
import { AudiobookLeases } from '../publishing/formats/audiobook/audiobook-leases';
import { DERIVED_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import { ApiClient, newAdmin } from './api-client';
import { bookForm, form, loseMedia, mediaBytes } from './fixtures';
import { onPostgres } from './database';
import { startServer, tempStorage, type TestServer } from './harness';

const run = promisify(execFile);
const RATE = 44_100;
/** Chapter marks are sums of decoded samples: they match the clips to a sample or two, not 50 ms. */
const MARK_SECONDS = 0.003;

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
  let silence: Blob;

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
    const quiet = join(work, 'silence.wav');
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=44100:cl=mono',
      '-t',
      '0.8',
      '-y',
      quiet,
    ]);
    silence = new Blob([readFileSync(quiet)]);
    server = await startServer();
    admin = (await newAdmin(server)).client;
    audiobooks = server.app.get(Audiobooks);
    audiobooks.rebuildDelayMs = 300;
    // The stray files the sweep test stores are new, and replaced files are awaited gone at once.
    audiobooks.timings.sweepMinAgeMs = 0;
    audiobooks.timings.replacedGraceMs = 0;
    derived = server.app.get<symbol, MediaStore>(DERIVED_STORE);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /**
   * A book of 3 chapters × 3 phrases, clips of mixed kinds and lengths (the chapters in `silent` of
   * silence only); its code and phrases' clips.
   */
  async function makeBook(title: string, silent: number[] = [], fields: Record<string, string> = {}) {
    const book = await admin.post<{ data: { id: number; book_code: string } }>(
      'admin/book',
      bookForm({ title, ...fields }),
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
            line_audio: silent.includes(n)
              ? [silence, 'silence.wav']
              : [clips[name], `clip.${name.split('.').pop()}`],
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
      streams: Array<{
        codec_type: string;
        codec_name: string;
        disposition: { attached_pic: number };
        tags?: { language?: string };
      }>;
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
    // The version the route sends as its ETag names the file.
    expect(done.key).toContain(`-${done.version}.m4b`);
    first = { ...book, key: done.key };

    const file = await saved(done.key);
    const probed = await probe(file);
    const lengths = await chapterSamples(book.chapters);
    let start = 0;
    expect(probed.chapters).toHaveLength(3);
    probed.chapters.forEach((chapter, i) => {
      expect(chapter.tags.title).toBe(book.chapters[i].title);
      expect(Math.abs(Number(chapter.start_time) - start / RATE)).toBeLessThan(MARK_SECONDS);
      start += lengths[i];
      expect(Math.abs(Number(chapter.end_time) - start / RATE)).toBeLessThan(MARK_SECONDS);
    });
    // The AAC encoder's last frame is padded; a player trims it by the priming and padding it is told of.
    expect(Math.abs((await decodedSamples(file)) - start) / RATE).toBeLessThan(0.025);
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

  it("tags the audio and chapter tracks with the book's language, und without one", async () => {
    const german = await makeBook('Das Hörbuch', [], { language: 'de-AT' });
    const languages = async (code: string) =>
      (await probe(await saved((await ready(code)).key))).streams
        .filter((stream) => stream.codec_type !== 'video')
        .map((stream) => [stream.codec_type, stream.tags?.language]);
    // The audio track and the chapter track (a data stream to ffprobe), in ISO 639-2/B.
    expect(await languages(german.code)).toEqual([
      ['audio', 'ger'],
      ['data', 'ger'],
    ]);
    expect(await languages(first.code)).toEqual([
      ['audio', 'und'],
      ['data', 'und'],
    ]);
  }, 90_000);

  it('makes the sample edition of the free chapter only', async () => {
    const done = await ready(first.code, 'sample');
    expect(done.filename).toBe(`${first.code}-sample.m4b`);
    const probed = await probe(await saved(done.key));
    expect(probed.chapters.map((c) => c.tags.title)).toEqual([first.chapters[0].title]);
    const [length] = await chapterSamples(first.chapters.slice(0, 1));
    expect(Math.abs(Number(probed.chapters[0].end_time) - length / RATE)).toBeLessThan(MARK_SECONDS);
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
      MARK_SECONDS,
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

  it('starts one build for many requests at once; its silent chapter is where the marks say', async () => {
    const book = await makeBook('Many At Once', [2]);
    const runs = audiobooks.buildsRun;
    const answers = await Promise.all(
      Array.from({ length: 6 }, async () => audiobooks.get(await bookOf(book.code), 'full')),
    );
    expect(answers.every((a) => !a.ready)).toBe(true);
    many = { code: book.code, key: (await ready(book.code)).key };
    expect(audiobooks.buildsRun - runs).toBe(1);
    // The audio itself, not the marks: chapter 2 alone is silent, and its silence starts and ends at its
    // marks (a few ms: the AAC frame around a tone's edge).
    const file = await saved(many.key);
    const [marks, { stderr }] = await Promise.all([
      probe(file),
      run('ffmpeg', ['-i', file, '-af', 'silencedetect=noise=-40dB:d=0.3', '-f', 'null', '-']),
    ]);
    const found = (name: string) =>
      [...stderr.matchAll(new RegExp(`silence_${name}: ([0-9.]+)`, 'g'))].map((m) => Number(m[1]));
    expect(found('start')).toHaveLength(1);
    expect(Math.abs(found('start')[0] - Number(marks.chapters[1].start_time))).toBeLessThan(0.012);
    expect(Math.abs(found('end')[0] - Number(marks.chapters[1].end_time))).toBeLessThan(0.012);
  }, 60_000);

  /** The edition's row; null before a build has claimed it (a build claims when its turn comes). */
  const rowOf = async (code: string, edition: 'full' | 'sample' = 'full') =>
    server.app
      .get(DataSource)
      .getRepository(AudiobookBuild)
      .findOneBy({ bookId: (await bookOf(code)).id, edition });

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
    expect((await rowOf(book.code))?.leaseOwner).toBe('elsewhere');
    // The other instance crashed: its lease runs out and is not renewed.
    await rows.update({ bookId: id, edition: 'full' }, { leaseUntilMs: Date.now() - 1 });
    await ready(book.code);
    expect(audiobooks.buildsRun - runs).toBe(1);
    expect(await rowOf(book.code)).toMatchObject({ state: 'ready', leaseOwner: null, buildingVersion: null });
  }, 60_000);

  it('records a failed build, does not try that version again at once, and builds the fixed book', async () => {
    const book = await makeBook('Lost Clip');
    await loseMedia(server, book.chapters[2].phrases[2].audio);
    const runs = audiobooks.buildsRun;
    expect((await audiobooks.get(await bookOf(book.code), 'full')).ready).toBe(false);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await rowOf(book.code))?.state !== 'failed')
      await new Promise((r) => setTimeout(r, 100));
    expect(await rowOf(book.code)).toMatchObject({
      state: 'failed',
      error: expect.any(String),
      failedVersion: expect.stringMatching(/^[0-9a-f]{64}$/),
      fileKey: null,
    });
    const again: AudiobookAnswer = await audiobooks.get(await bookOf(book.code), 'full');
    expect(again).toEqual({
      ready: false,
      retryAfterSeconds: expect.any(Number),
      message: expect.stringMatching(/failed; it is tried again in \d+ s/),
    });
    expect(audiobooks.buildsRun - runs).toBe(1);

    // The fix (the phrase without its clip removed): no pause for the new version, and the debounced
    // rebuild makes it on its own, without a request.
    const lost = book.chapters[2].phrases.pop()!;
    expect((await admin.delete(`admin/phrase/${lost.id}`)).status).toBe(200);
    const fixed = Date.now() + 30_000;
    while (Date.now() < fixed && (await rowOf(book.code))?.state !== 'ready')
      await new Promise((r) => setTimeout(r, 100));
    expect(await rowOf(book.code)).toMatchObject({ state: 'ready', failedVersion: null, error: null });
    expect(audiobooks.buildsRun - runs).toBe(2);
    const done = await ready(book.code, 'full', 1000);
    const probed = await probe(await saved(done.key));
    expect(probed.chapters[2].end_time).toBeDefined();
    const lengths = await chapterSamples(book.chapters);
    const total = lengths.reduce((a, b) => a + b, 0);
    expect(Math.abs(Number(probed.chapters[2].end_time) - total / RATE)).toBeLessThan(MARK_SECONDS);
  }, 60_000);

  it('stops a build that outruns its deadline (a hung encoder) and records it failed', async () => {
    const book = await admin.post<{ data: { id: number; book_code: string } }>(
      'admin/book',
      bookForm({ title: 'Hung Encoder' }),
    );
    const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: 'Seul',
      chapter_no: 1,
      book_id: book.body.data.id,
    });
    const phrase = await admin.post(
      'admin/phrase',
      form({
        chapter_id: chapter.body.data.id,
        phrase: 'Une',
        dictionary: 'une — one',
        line_audio: [clips['1.2.wav'], 'clip.wav'],
      }),
    );
    expect(phrase.status).toBe(200);
    const deadline = audiobooks.timings.deadlineMs;
    audiobooks.timings.deadlineMs = () => 0;
    try {
      const code = book.body.data.book_code;
      expect((await audiobooks.get(await bookOf(code), 'full')).ready).toBe(false);
      const until = Date.now() + 30_000;
      while (Date.now() < until && (await rowOf(code))?.state !== 'failed')
        await new Promise((r) => setTimeout(r, 100));
      expect(await rowOf(code)).toMatchObject({ state: 'failed', error: expect.stringMatching(/too long/) });
      expect(await audiobooks.get(await bookOf(code), 'full')).toMatchObject({
        ready: false,
        message: expect.stringMatching(/failed/),
      });
    } finally {
      audiobooks.timings.deadlineMs = deadline;
    }
    expect((await admin.delete(`admin/book/${book.body.data.book_code}`)).status).toBe(200);
  }, 60_000);

  it('gives a build to exactly one of many claims at once, first build (INSERT) or next (UPDATE)', async () => {
    const db = server.app.get(DataSource);
    const rows = db.getRepository(AudiobookBuild);
    const leases = new AudiobookLeases(db, rows);
    const book = await admin.post<{ data: { id: number; book_code: string } }>(
      'admin/book',
      bookForm({ title: 'Claimed At Once' }),
    );
    const bookId = book.body.data.id;
    const claims = (version: string) =>
      Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          leases.claim(bookId, 'full', version, `owner-${i}`, Date.now(), Date.now() + 60_000),
        ),
      );
    const won = (results: boolean[]) => results.filter(Boolean).length;
    expect(won(await claims('1'.repeat(64)))).toBe(1);
    // A live lease: nobody else.
    expect(won(await claims('2'.repeat(64)))).toBe(0);
    // It ran out: exactly one takes it over.
    await rows.update({ bookId, edition: 'full' }, { leaseUntilMs: Date.now() - 1 });
    expect(won(await claims('2'.repeat(64)))).toBe(1);
    // Failed: the same version waits out the pause, another one is taken by exactly one claim.
    const { id, leaseOwner } = (await rows.findOneBy({ bookId, edition: 'full' }))!;
    await leases.fail(id, leaseOwner!, '2'.repeat(64), 'broken', Date.now() + 60_000);
    expect(won(await claims('2'.repeat(64)))).toBe(0);
    expect(won(await claims('3'.repeat(64)))).toBe(1);
    expect((await admin.delete(`admin/book/${book.body.data.book_code}`)).status).toBe(200);
  });

  it("sweeps audiobook files no row points to: a deleted book's, a stray one; not an upload", async () => {
    const stray = join(work, 'stray.m4b');
    writeFileSync(stray, 'not an audiobook');
    const strayKey = `audiobooks/gone-full-${'a'.repeat(64)}.m4b`;
    await derived.put(strayKey, stray);
    // What a local store's upload under way looks like (another instance's, say): not an M4B yet.
    const partKey = `audiobooks/up-full-${'b'.repeat(64)}.m4b.0123abcd.part`;
    const part = join(work, 'upload.part');
    writeFileSync(part, 'half an audiobook');
    await derived.put(partKey, part);
    expect((await admin.delete(`admin/book/${many.code}`)).status).toBe(200);
    await gone(many.key, 10_000);
    await gone(strayKey, 10_000);
    const keys = (await derived.list('audiobooks/')).map((o) => o.key);
    expect(keys).toContain(first.key);
    expect(keys).toContain(partKey);
    await derived.delete([partKey]);
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

  // Two instances share files only through a bucket (a local folder each here).
  (onPostgres && process.env.TEST_MEDIA_STORE === 's3' ? it : it.skip)(
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
