import { execFile, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { id3v2Size } from '../platform/media/id3';
import { BooksRepository } from '../content/catalogue/repository/books.repository';
import { PhrasesRepository } from '../content/catalogue/repository/phrases.repository';
import { EpubClips, transcodeKey } from '../publishing/formats/epub-clips';
import { EpubExport } from '../publishing/formats/epub/epub-export';
import { ffmpegPath } from '../publishing/imports/ffmpeg';
import { COVER_WIDTHS, coverFile } from '../platform/media/media-urls';
import { DERIVED_STORE, MEDIA_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import { DemoSeedService } from '../seed/demo-seed.service';
import { ApiClient, newAdmin } from './api-client';
import { bookForm, loseMedia } from './fixtures';
import { onPostgres } from './database';
import { startServer, type TestServer } from './harness';
import { unzip, type ZipItem } from './zips';
import { failWithoutFfmpeg } from './ffmpeg-present';
import { eventually } from './eventually';

/**
 * EPUB 3 with Media Overlays (docs/formats.md), made through the service on the test's database and store,
 * checked with Debian's EPUBCheck and by decoding every clip with the real ffmpeg.
 */
const EPUBCHECK = '/usr/share/java/epubcheck.jar';
const run = promisify(execFile);

/** Clip sources of each kind and of unlike lengths: WAV and Ogg go in transcoded, MP3 as stored. */
const SOURCES = [
  { ext: 'wav', seconds: 0.35, codec: ['-c:a', 'pcm_s16le'] },
  { ext: 'ogg', seconds: 0.55, codec: ['-c:a', 'libvorbis'] },
  { ext: 'mp3', seconds: 0.45, codec: ['-c:a', 'libmp3lame', '-b:a', '64k'] },
  { ext: 'wav', seconds: 0.8, codec: ['-c:a', 'pcm_s16le', '-ar', '22050'] },
  { ext: 'ogg', seconds: 1.05, codec: ['-c:a', 'libvorbis'] },
  { ext: 'mp3', seconds: 0.9, codec: ['-c:a', 'libmp3lame', '-b:a', '64k'] },
];
const PHRASES_PER_CHAPTER = 100;
/**
 * Distinct clip files: each is transcoded and measured once, and ffmpeg is slow on a busy machine, so the
 * 300 phrases share 30 files (ten of each kind), as phrases may: one file goes in once, named by every par.
 */
const CLIP_FILES = 30;

interface CheckReport {
  messages: Array<{ ID: string; severity: string; message: string; locations: Array<{ path: string }> }>;
  checker: { nFatal: number; nError: number; nWarning: number };
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The decoded length of audio bytes, in µs, counted from the PCM ffmpeg gives at 48 kHz. */
function decodedUs(dir: string, data: Buffer, ext: string): number {
  const file = join(dir, `decode-${randomBytes(4).toString('hex')}.${ext}`);
  writeFileSync(file, data);
  const pcm = execFileSync(
    ffmpegPath(),
    ['-v', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '48000', '-'],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  rmSync(file);
  return ((pcm.length / 2) * 1e6) / 48_000;
}

describe('EPUB 3 with Media Overlays', () => {
  let server: TestServer;
  let dir: string;
  let generated: string;
  let adminToken: string;
  /** The generated book's source files: phrase n's clip is a copy of sources[n % SOURCES.length]. */
  let sources: Array<{ file: string; ext: string }>;
  const files = new Map<string, string>();

  async function epub(code: string, whole: boolean): Promise<Buffer> {
    const book = await server.app.get(BooksRepository).byCode(code);
    const { stream } = await server.app.get(EpubExport).stream(book!, whole);
    return collect(stream);
  }

  /** A book of 300 phrases (WAV, Ogg and MP3 clips, each phrase its own file) and an empty chapter. */
  async function makeGeneratedBook(): Promise<string> {
    sources = SOURCES.map((source, i) => {
      const file = join(dir, `source-${i}.${source.ext}`);
      execFileSync(ffmpegPath(), [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${300 + 70 * i}:sample_rate=44100:duration=${source.seconds}`,
        ...source.codec,
        file,
      ]);
      return { file, ext: source.ext };
    });
    const media = server.app.get<symbol, MediaStore>(MEDIA_STORE);
    const { client: admin, email, password } = await newAdmin(server);
    adminToken = (await new ApiClient(server).post<{ token: string }>('user/login', { email, password })).body
      .token;
    // No language: the EPUB says "und" (undetermined).
    const book = await admin.post<{ data: { id: number; book_code: string } }>(
      'admin/book',
      bookForm({ title: 'Tom & Jerry <300 phrases>' }),
    );
    const phrases = server.app.get(PhrasesRepository);
    const keys: string[] = [];
    for (let i = 0; i < CLIP_FILES; i++) {
      const source = sources[i % sources.length];
      const key = `lines/${randomBytes(16).toString('hex')}.${source.ext}`;
      const copy = join(dir, `copy-${i}`);
      copyFileSync(source.file, copy);
      await media.put(key, copy);
      keys.push(key);
    }
    let n = 0;
    for (const chapterNo of [1, 2, 3, 4]) {
      const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: `Chapitre « ${chapterNo} » & co`,
        chapter_no: chapterNo,
        book_id: book.body.data.id,
      });
      if (chapter.status !== 200) throw new Error(chapter.text);
      if (chapterNo === 4) break; // a chapter without phrases: a page without an overlay
      const rows = [];
      for (let k = 0; k < PHRASES_PER_CHAPTER; k++, n++) {
        const key = keys[n % CLIP_FILES];
        rows.push({
          phrase: `Phrase ${n} <b>"${'&'}"</b> l’été\u0001.`,
          dictionary: n % 3 === 0 ? '' : `été — summer\nmot <${n}>`,
          audioPath: key,
          audioMs: null,
        });
      }
      await phrases.append(chapter.body.data.id, rows);
    }
    return book.body.data.book_code;
  }

  beforeAll(async () => {
    failWithoutFfmpeg();
    if (!existsSync(EPUBCHECK)) throw new Error('Install EPUBCheck: sudo apt-get install -y epubcheck');
    dir = mkdtempSync(join(tmpdir(), 'lingonovel-epub-'));
    server = await startServer();
    await server.app.get(DemoSeedService).seedOnce();
    generated = await makeGeneratedBook();
    // What the tests below read, on both passes: the generated book, and the first book whole and sampled.
    const [first] = await bookCodes();
    for (const [code, whole] of [
      [generated, true],
      [first, true],
      [first, false],
    ] as const)
      await keep(code, whole);
  }, 300_000);

  /** Every book's code, oldest first (the nine demo books, then the generated one). */
  const bookCodes = async () =>
    (
      await server.app
        .get(DataSource)
        .query<Array<{ book_code: string }>>('SELECT book_code FROM books ORDER BY id')
    ).map((row) => row.book_code);

  /** Makes an EPUB into a file, named in `files` by its code (and `-sample` for a sample). */
  async function keep(code: string, whole: boolean): Promise<void> {
    const name = `${code}${whole ? '' : '-sample'}`;
    if (files.has(name)) return;
    const file = join(dir, `${name}.epub`);
    writeFileSync(file, await epub(code, whole));
    files.set(name, file);
  }

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const entry = (items: ZipItem[], name: string) =>
    items.find((item) => item.name === name)!.data.toString('utf8');

  // EPUBCheck reads the file, which is the same whichever engine made it: once, in the SQLite pass. The
  // other tests here check the PostgreSQL and bucket pass's EPUBs against the audio.
  (onPostgres ? it.skip : it)(
    'passes EPUBCheck with no error and no warning: every demo book, its sample, and 300 phrases of WAV, Ogg and MP3',
    async () => {
      const codes = await bookCodes();
      expect(codes.length).toBeGreaterThanOrEqual(10);
      for (const code of codes) await keep(code, true);
      // One Java process checks them all (epubcheck-many.java): EPUBCheck's exit status says nothing
      // more than its reports, which say which file has what.
      const checked = [...files].map(([name, file]) => ({ name, file, out: `${file}.json` }));
      await run(
        'java',
        [
          // A quick JIT: the run is short.
          '-XX:TieredStopAtLevel=1',
          '-XX:+UseSerialGC',
          '-cp',
          EPUBCHECK,
          join(__dirname, 'epubcheck-many.java'),
          ...checked.flatMap(({ file, out }) => [file, out]),
        ],
        { maxBuffer: 16 * 1024 * 1024 },
      );
      const reports = checked.map(({ name, out }) => {
        if (!existsSync(out)) throw new Error(`EPUBCheck wrote no report for ${name}`);
        const report = JSON.parse(readFileSync(out, 'utf8')) as CheckReport;
        return {
          name,
          counts: report.checker,
          messages: report.messages
            .filter((m) => m.severity !== 'USAGE' && m.severity !== 'INFO')
            .map((m) => `${m.severity} ${m.ID} ${m.message} ${m.locations.map((l) => l.path).join(' ')}`),
        };
      });
      for (const report of reports) {
        expect({ name: report.name, messages: report.messages }).toEqual({ name: report.name, messages: [] });
        expect(report.counts).toEqual(expect.objectContaining({ nFatal: 0, nError: 0, nWarning: 0 }));
      }
      expect(generated in Object.fromEntries(files)).toBe(true);
    },
    600_000,
  );

  it('times every phrase to its own clip, within 5 ms of its decoded length', async () => {
    const items = await unzip(readFileSync(files.get(generated) ?? join(dir, 'none')));
    const byName = new Map(items.map((item) => [item.name, item.data]));
    const lengths = new Map<string, number>();
    let pars = 0;
    let sumUs = 0;
    const overlays = [] as number[];
    const sourceUs = sources.map((source) => decodedUs(dir, readFileSync(source.file), source.ext));
    // An MP3 goes in as stored, less its ID3 tags (platform/media/id3.ts: a leading ID3v2 tag, as ffmpeg writes).
    const sourceHash = sources.map((source) => {
      const bytes = readFileSync(source.file);
      const tag = source.ext === 'mp3' ? (id3v2Size(bytes) ?? 0) : 0;
      return createHash('sha1').update(bytes.subarray(tag)).digest('hex');
    });
    for (const chapterNo of [1, 2, 3]) {
      const smil = entry(items, `OEBPS/smil/chapter-${chapterNo}.smil`);
      const found = [
        ...smil.matchAll(
          /<text src="\.\.\/text\/chapter-(\d+)\.xhtml#(p\d+)"\/><audio src="\.\.\/([^"]+)" clipBegin="([\d.]+)s" clipEnd="([\d.]+)s"\/>/g,
        ),
      ];
      expect(found).toHaveLength(PHRASES_PER_CHAPTER);
      let chapterUs = 0;
      for (const [, textChapter, id, audio, begin, end] of found) {
        // Par K is phrase K: its clip is the phrase's own source (MP3 byte for byte, a transcode as long).
        const n = (chapterNo - 1) * PHRASES_PER_CHAPTER + Number(id.slice(1)) - 1;
        const own = n % SOURCES.length;
        expect(Number(textChapter)).toBe(chapterNo);
        expect(entry(items, `OEBPS/text/chapter-${chapterNo}.xhtml`)).toContain(
          `<p id="${id}" class="phrase">`,
        );
        const data = byName.get(`OEBPS/${audio}`)!;
        const hash = createHash('sha1').update(data).digest('hex');
        if (!lengths.has(hash)) lengths.set(hash, decodedUs(dir, data, audio.split('.').pop()!));
        const spanUs = (Number(end) - Number(begin)) * 1e6;
        // The span is the stored clip's decoded length, whatever goes in (docs/formats.md "Exact lengths").
        expect({ id, off: Math.abs(spanUs - sourceUs[own]) <= 5_000 }).toEqual({ id, off: true });
        if (SOURCES[own].ext === 'mp3') {
          expect({ id, hash }).toEqual({ id, hash: sourceHash[own] });
          expect({ audio, off: Math.abs(spanUs - lengths.get(hash)!) <= 5_000 }).toEqual({
            audio,
            off: true,
          });
        } else {
          // AAC pads its end to a whole frame (1,024 samples: 46 ms at 22.05 kHz), which the span leaves out.
          const padUs = lengths.get(hash)! - spanUs;
          expect({ audio, padded: padUs > -5_000 && padUs < 47_000 }).toEqual({ audio, padded: true });
        }
        chapterUs += Math.round(Number(end) * 1e6);
        pars++;
      }
      overlays.push(chapterUs);
      sumUs += chapterUs;
    }
    // Each overlay's media:duration is the sum of its clipEnds (clipBegin is 0), to the microsecond.
    const opfText = entry(items, 'OEBPS/package.opf');
    overlays.forEach((us, i) => {
      const stated = new RegExp(
        `<meta property="media:duration" refines="#overlay-${i + 1}">(\\d+):(\\d\\d):(\\d+)\\.(\\d{6})</meta>`,
      ).exec(opfText)!;
      const [h, m, sec, frac] = stated.slice(1).map(Number);
      expect({ chapter: i + 1, us: ((h * 60 + m) * 60 + sec) * 1e6 + frac }).toEqual({ chapter: i + 1, us });
    });
    expect(pars).toBe(3 * PHRASES_PER_CHAPTER);
    // WAV and Ogg went in as AAC in MP4; nothing but MP3 and M4A is inside.
    const audioNames = items.filter((item) => item.name.startsWith('OEBPS/audio/')).map((item) => item.name);
    expect(audioNames).toHaveLength(CLIP_FILES);
    expect(audioNames.filter((name) => !/\.(mp3|m4a)$/.test(name))).toEqual([]);
    expect(audioNames.filter((name) => name.endsWith('.m4a'))).toHaveLength((CLIP_FILES * 2) / 3);
    const opf = entry(items, 'OEBPS/package.opf');
    expect(opf).toContain('<dc:language>und</dc:language>');
    expect(opf).toContain('<meta property="media:active-class">-epub-media-overlay-active</meta>');
    const total = /<meta property="media:duration">(\d+):(\d\d):([\d.]+)<\/meta>/.exec(opf)!;
    expect(
      Math.abs(Number(total[1]) * 3600e6 + Number(total[2]) * 60e6 + Number(total[3]) * 1e6 - sumUs),
    ).toBeLessThan(1);
    expect(opf).not.toContain('refines="#overlay-4"');
  }, 300_000);

  it('starts with mimetype, stored, without an extra field, and ends with the package document', async () => {
    const zip = readFileSync(files.get(generated)!);
    expect(zip.readUInt32LE(0)).toBe(0x04034b50);
    expect(zip.readUInt16LE(8)).toBe(0); // stored
    expect(zip.toString('ascii', 30, 30 + zip.readUInt16LE(26))).toBe('mimetype');
    expect(zip.readUInt16LE(28)).toBe(0); // no extra field
    expect(zip.toString('ascii', 38, 58)).toBe('application/epub+zip');
    const names = (await unzip(zip)).map((item) => item.name);
    expect(names.at(-1)).toBe('OEBPS/package.opf');
    expect(names.slice(0, 3)).toEqual(['mimetype', 'META-INF/container.xml', 'OEBPS/text/chapter-1.xhtml']);
  });

  it('gives the sample as the free chapter and a closing page naming where the whole book is', async () => {
    const code = [...files.keys()].find((name) => name.endsWith('-sample'))!.replace(/-sample$/, '');
    const items = await unzip(readFileSync(files.get(`${code}-sample`)!));
    const pages = items.filter((item) => item.name.startsWith('OEBPS/text/')).map((item) => item.name);
    expect(pages).toEqual(['OEBPS/text/chapter-1.xhtml', 'OEBPS/text/sample-end.xhtml']);
    expect(items.filter((item) => item.name.startsWith('OEBPS/smil/')).map((item) => item.name)).toEqual([
      'OEBPS/smil/chapter-1.smil',
    ]);
    expect(entry(items, 'OEBPS/text/sample-end.xhtml')).toContain(
      `<a href="${server.config.publicUrl}/book-detail/${code}">`,
    );
    const nav = entry(items, 'OEBPS/nav.xhtml');
    expect([...nav.matchAll(/<li><a href="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'text/chapter-1.xhtml',
      'text/sample-end.xhtml',
    ]);
    const opf = entry(items, 'OEBPS/package.opf');
    expect([...opf.matchAll(/<itemref idref="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'chapter-1',
      'sample-end',
    ]);
    expect(opf).not.toContain('chapter-2');
    const whole = await unzip(readFileSync(files.get(code)!));
    const identifier = (text: string) => /<dc:identifier id="pub-id">([^<]+)</.exec(text)![1];
    expect(identifier(opf)).not.toBe(identifier(entry(whole, 'OEBPS/package.opf')));
    expect(identifier(opf)).toMatch(/^urn:uuid:/);
    const clipsOfFirst = whole.filter((item) => /^OEBPS\/audio\/c1-/.test(item.name)).length;
    expect(items.filter((item) => item.name.startsWith('OEBPS/audio/'))).toHaveLength(clipsOfFirst);
  });

  it('answers a visitor over HTTP with the sample, as an EPUB download', async () => {
    const code = [...files.keys()].find((name) => name.endsWith('-sample'))!.replace(/-sample$/, '');
    const res = await fetch(`${server.baseUrl}/api/v1/downloads/${code}/epub`);
    expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({
      status: 200,
      type: 'application/epub+zip',
    });
    const items = await unzip(Buffer.from(await res.arrayBuffer()));
    expect(items.filter((item) => item.name.startsWith('OEBPS/text/')).map((item) => item.name)).toEqual([
      'OEBPS/text/chapter-1.xhtml',
      'OEBPS/text/sample-end.xhtml',
    ]);
  });

  /** GET the whole book's EPUB as the admin, over HTTP. */
  const download = (code: string, signal?: AbortSignal) =>
    fetch(`${server.baseUrl}/api/v1/downloads/${code}/epub`, {
      headers: { Authorization: `Bearer ${adminToken}` },
      signal,
    });

  it('starts no more clip work once the client hangs up midway', async () => {
    const clips = server.app.get(EpubClips);
    const original = clips.forEpub.bind(clips);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls: Array<AbortSignal | undefined> = [];
    // The pre-flight's call (chapter 1) goes through; the next chapter's clips, found, are handed over only
    // once the client has gone: nothing more may be asked for then.
    const spy = jest.spyOn(clips, 'forEpub').mockImplementation(async (paths, signal) => {
      calls.push(signal);
      // Without the signal: these clips are found even if the client goes meanwhile.
      const found = await original(paths);
      if (calls.length > 1) await gate;
      return found;
    });
    try {
      const hangUp = new AbortController();
      const res = await download(generated, hangUp.signal);
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let received = 0;
      while (received < 4096) {
        const { done, value } = await reader.read();
        if (done) throw new Error('The EPUB ended before the test could hang up');
        received += (value as Uint8Array).length;
      }
      hangUp.abort();
      // The server sees the connection close: the work under way is told to stop.
      await eventually(() => calls[1]?.aborted === true, "chapter 2's clips to be told to stop");
      release();
      // Nothing more may be asked for: a moment for a third call that must not come.
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Chapter 1 (before the first byte) and chapter 2 (asked for while 1 went out); never chapter 3.
      expect(calls).toHaveLength(2);
      expect(calls[1]?.aborted).toBe(true);
    } finally {
      spy.mockRestore();
      release();
    }
  });

  it('cuts the download short, never a whole-looking EPUB, when a later clip is lost after the checks', async () => {
    // A demo book of two chapters or more: its clips are its own, read only when their chapter goes out.
    const [{ book_code: code }] = await server.app.get(DataSource).query<Array<{ book_code: string }>>(
      `SELECT b.book_code FROM books b JOIN chapters c ON c.book_id = b.id
       WHERE EXISTS (SELECT 1 FROM phrases p WHERE p.chapter_id = c.id)
       GROUP BY b.id, b.book_code HAVING COUNT(*) >= 2 ORDER BY b.id`,
    );
    const clips = server.app.get(EpubClips);
    const original = clips.forEpub.bind(clips);
    const derived = server.app.get<symbol, MediaStore>(DERIVED_STORE);
    let calls = 0;
    const spy = jest.spyOn(clips, 'forEpub').mockImplementation(async (paths, signal) => {
      // Chapter 2's clips, asked for after the checks and the first byte: its first file goes.
      if (++calls === 2) {
        await loseMedia(server, paths[0]);
        await derived.delete([transcodeKey(paths[0])]);
      }
      return original(paths, signal);
    });
    try {
      const res = await download(code);
      expect(res.status).toBe(200);
      const whole = await res.arrayBuffer().then(
        async (body) => (await unzip(Buffer.from(body))).some((item) => item.name === 'OEBPS/package.opf'),
        () => false,
      );
      expect({ calls: calls >= 2, whole }).toEqual({ calls: true, whole: false });
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses with 422 before any byte when the cover is not a readable image', async () => {
    const book = (await server.app.get(BooksRepository).byCode(generated))!;
    const media = server.app.get<symbol, MediaStore>(MEDIA_STORE);
    const broken = join(dir, 'broken-cover.webp');
    writeFileSync(broken, Buffer.from('RIFF\0\0\0\0WEBPVP8 not really an image'));
    await media.put(coverFile(book.coverPath, COVER_WIDTHS[COVER_WIDTHS.length - 1]), broken);
    const refusal = await server.app
      .get(EpubExport)
      .stream(book, true)
      .then(
        () => null,
        (error: { getStatus(): number; message: string }) => ({
          status: error.getStatus(),
          message: error.message,
        }),
      );
    expect(refusal).toEqual({
      status: 422,
      message:
        "The EPUB cannot be made: the book's cover is not an image that can be read. Upload the cover again.",
    });
  });

  it('refuses with 422 naming the missing clip, before any byte', async () => {
    const [row] = await server.app.get(DataSource).query<Array<{ audio_path: string }>>(
      `SELECT p.audio_path FROM phrases p JOIN chapters c ON c.id = p.chapter_id JOIN books b ON b.id = c.book_id
       WHERE b.book_code = '${generated}' AND c.chapter_no = 3 ORDER BY p.position DESC`,
    );
    await loseMedia(server, row.audio_path);
    const book = await server.app.get(BooksRepository).byCode(generated);
    const refusal = (whole: boolean) =>
      server.app
        .get(EpubExport)
        .stream(book!, whole)
        .then(
          () => null,
          (error: { getStatus(): number; message: string }) => ({
            status: error.getStatus(),
            message: error.message,
          }),
        );
    // The last phrase's file is shared with chapter 1's 30th phrase (CLIP_FILES): named where it is first met.
    const expected = {
      status: 422,
      message: `The EPUB cannot be made: 1 of the book's files is missing from storage (chapter 1, phrase 30 (${row.audio_path})). Upload them again first.`,
    };
    expect(await refusal(true)).toEqual(expected);
    expect(await refusal(false)).toEqual(expected);
  });
});
