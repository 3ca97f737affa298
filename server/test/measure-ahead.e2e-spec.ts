import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, In } from 'typeorm';
import { CatalogueEvents } from '../content/catalogue/catalogue-events';
import { BooksRepository } from '../content/catalogue/repository/books.repository';
import { ChaptersRepository } from '../content/catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../content/catalogue/repository/phrases.repository';
import { AudioMeasure } from '../publishing/formats/audio-measure.entity';
import { decodedLengthUs } from '../publishing/formats/audio-measures';
import { MeasureAhead } from '../publishing/formats/measure-ahead';
import { msOfUs } from '../platform/media/audio-lengths';
import { MEDIA_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import { ApiClient, newAdmin } from './api-client';
import { bookForm, fixture, form } from './fixtures';
import { startServer, type TestServer } from './harness';
import type { Phrase } from '../content/catalogue/entities/phrase.entity';
import { DemoSeedService } from '../seed/demo-seed.service';
import { failWithoutFfmpeg } from './ffmpeg-present';
import { eventually } from './eventually';

/**
 * Clip lengths measured in the background after an edit (docs/formats.md "Exact lengths"), so the first
 * EPUB or subtitles of a chapter do not wait for ffmpeg on every clip. Real ffmpeg, the test's database
 * and store (SQLite and a folder, or PostgreSQL and S3).
 */
describe('Measuring clip lengths ahead of downloads', () => {
  let server: TestServer;
  let admin: ApiClient;
  let ahead: MeasureAhead;
  let dir: string;
  let bookId: number;
  let chapterId: number;
  /** The fixture clip's decoded length, as a download would measure it. */
  let clipUs: number;

  beforeAll(async () => {
    failWithoutFfmpeg();
    dir = mkdtempSync(join(tmpdir(), 'lingonovel-ahead-'));
    writeFileSync(join(dir, 'clip.mp3'), Buffer.from(await fixture('clip.mp3').arrayBuffer()));
    clipUs = await decodedLengthUs(join(dir, 'clip.mp3'));
    server = await startServer();
    ahead = server.app.get(MeasureAhead);
    ahead.delayMs = 300;
    admin = (await newAdmin(server)).client;
    bookId = (await admin.post<{ data: { id: number } }>('admin/book', bookForm())).body.data.id;
    chapterId = (
      await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: 'Eins',
        chapter_no: 1,
        book_id: bookId,
      })
    ).body.data.id;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => jest.restoreAllMocks());

  async function addPhrase(text: string, audio: Blob): Promise<string> {
    const res = await admin.post<{ data: { id: number } }>(
      'admin/phrase',
      form({
        phrase: text,
        dictionary: 'Satz — sentence',
        chapter_id: chapterId,
        line_audio: [audio, 'line.mp3'],
      }),
    );
    if (res.status !== 200) throw new Error(res.text);
    return (await server.app.get(PhrasesRepository).byId(res.body.data.id))!.audioPath;
  }

  /** The kept lengths of these media keys, by key. */
  async function kept(...keys: string[]): Promise<Map<string, number>> {
    const rows = await server.app
      .get(DataSource)
      .getRepository(AudioMeasure)
      .findBy({ audioKey: In(keys.map((key) => `media:${key}`)) });
    return new Map(rows.map((row) => [row.audioKey.slice('media:'.length), Number(row.decodedUs)]));
  }

  it('measures a new clip shortly after the edit, without any download', async () => {
    const key = await addPhrase('Der erste Satz.', fixture('clip.mp3'));
    await eventually(async () => (await kept(key)).has(key));
    expect((await kept(key)).get(key)).toBe(clipUs);
  });

  it('measures an import’s clips after its commit, and puts their decoded lengths on the rows', async () => {
    const chapter = (
      await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: 'Zwei',
        chapter_no: 2,
        book_id: bookId,
      })
    ).body.data.id;
    // An import stores its clips unmeasured, with the container's figure (MediaService.storeAudio 'later').
    const data = new FormData();
    data.set(
      'text',
      new Blob(['phrase\tdictionary\taudio\nDrei.\tdrei — three\t1.mp3\nVier.\tvier — four\t2.mp3\n']),
      'chapter.tsv',
    );
    data.append('clips', fixture('clip.mp3'), '1.mp3');
    data.append('clips', fixture('clip.mp3'), '2.mp3');
    const staged = await admin.post<{ data: { import_id: string } }>(`admin/chapter/${chapter}/import`, data);
    expect(staged.status).toBe(200);
    expect((await admin.post(`admin/import/${staged.body.data.import_id}/commit`)).status).toBe(200);
    const rows = () => server.app.get(PhrasesRepository).ofChapters([chapter]);
    const keys = (await rows()).map((phrase) => phrase.audioPath);
    expect(keys).toHaveLength(2);
    await eventually(async () => (await kept(...keys)).size === 2);
    expect([...(await kept(...keys)).values()]).toEqual([clipUs, clipUs]);
    await ahead.idle();
    expect((await rows()).map((phrase) => phrase.audioMs)).toEqual([msOfUs(clipUs), msOfUs(clipUs)]);
  });

  it('logs a clip that is not audio, keeps the edit, and still measures the book’s other clips', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const good = await addPhrase('Ein guter Satz.', fixture('clip.mp3'));
    // A WAV header and no samples: the upload's checks take it for WAV, ffmpeg decodes no audio.
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'latin1');
    header.writeUInt32LE(36, 4);
    header.write('WAVEfmt ', 8, 'latin1');
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(44_100, 24);
    header.writeUInt32LE(88_200, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36, 'latin1');
    // An upload refuses it now (its length is decoded at once), so it comes in as an import's clip does:
    // stored without measuring, its phrase appended by the catalogue's writer, the change announced.
    const bad = 'lines/no-samples.wav';
    writeFileSync(join(dir, 'no-samples.wav'), header);
    await server.app.get<symbol, MediaStore>(MEDIA_STORE).put(bad, join(dir, 'no-samples.wav'), 'audio/wav');
    await server.app
      .get(PhrasesRepository)
      .append(chapterId, [
        { phrase: 'Ein kaputter Satz.', dictionary: 'Satz — sentence', audioPath: bad, audioMs: 1 },
      ]);
    await server.app.get(CatalogueEvents).changed();
    await eventually(async () => (await kept(good)).has(good));
    await eventually(() => Promise.resolve(warn.mock.calls.some((call) => String(call[0]).includes(bad))));
    expect(await kept(good, bad)).toEqual(new Map([[good, clipUs]]));
    // The edits stand, and the next one is answered as ever.
    const listed = await admin.get<{ data: { phrases: Array<{ phrase: string }> } }>(
      `admin/phrase?chapter_id=${chapterId}`,
    );
    expect(listed.body.data.phrases.map((p) => p.phrase)).toContain('Ein kaputter Satz.');
    const edit = await admin.post(
      'admin/phrase',
      form({
        phrase: 'Noch einer.',
        dictionary: 'Satz — sentence',
        chapter_id: chapterId,
        line_audio: [fixture('clip.mp3'), 'x.mp3'],
      }),
    );
    expect(edit.status).toBe(200);
    // The bad clip is not decoded again at every edit: one warning for it, whatever follows.
    await ahead.idle();
    expect(warn.mock.calls.filter((call) => String(call[0]).includes(bad))).toHaveLength(1);
  });

  it('leaves nothing of the demo catalogue to measure: the seed keeps the lengths its clips ship with', async () => {
    // No measuring ahead while this looks: what is kept and on the rows is the seed's own doing.
    ahead.delayMs = 600_000;
    const books = server.app.get(BooksRepository);
    const before = new Set(await books.codes());
    try {
      await server.app.get(DemoSeedService).seedOnce();
    } finally {
      ahead.delayMs = 300;
    }
    const demo = (await books.codes()).filter((code) => !before.has(code));
    expect(demo.length).toBeGreaterThan(3);
    const phrases: Phrase[] = [];
    const samples: Array<{ key: string; ms: number | null }> = [];
    for (const code of demo) {
      const book = (await books.byCode(code))!;
      samples.push({ key: book.sampleAudioPath, ms: book.sampleAudioMs });
      const ids = (await server.app.get(ChaptersRepository).ofBook(book.id)).map((chapter) => chapter.id);
      phrases.push(...(await server.app.get(PhrasesRepository).ofChapters(ids)));
    }
    expect(phrases.length).toBeGreaterThan(50);
    const lengths = await kept(...phrases.map((phrase) => phrase.audioPath), ...samples.map((s) => s.key));
    const off = [
      ...phrases.map((phrase) => ({ key: phrase.audioPath, ms: phrase.audioMs })),
      ...samples,
    ].filter(({ key, ms }) => !lengths.has(key) || ms !== Math.round(lengths.get(key)! / 1000));
    expect(off).toEqual([]);
    // The boot's backfill finds none of them either.
    expect((await books.codesWithUnmeasuredClips()).filter((code) => demo.includes(code))).toEqual([]);
    // The seed's change still waits out the long delay: announced again, it runs now (lookups only), and
    // the tests after this one find nothing pending.
    await server.app.get(CatalogueEvents).changed();
    await ahead.idle();
  });

  it('without ffmpeg, says so once and measures nothing more, while edits go on', async () => {
    const other = await startServer();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const previous = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = join(dir, 'no-ffmpeg-here');
    try {
      const measure = other.app.get(MeasureAhead);
      measure.delayMs = 100;
      const { client } = await newAdmin(other);
      const book = (await client.post<{ data: { id: number } }>('admin/book', bookForm())).body.data;
      const chapter = (
        await client.post<{ data: { id: number } }>('admin/chapter', {
          title: 'Eins',
          chapter_no: 1,
          book_id: book.id,
        })
      ).body.data.id;
      const line = () =>
        form({
          phrase: 'Satz.',
          dictionary: 'Satz — sentence',
          chapter_id: chapter,
          line_audio: [fixture('clip.mp3'), 'x.mp3'],
        });
      expect((await client.post('admin/phrase', line())).status).toBe(200);
      await measure.idle();
      expect((await client.post('admin/phrase', line())).status).toBe(200);
      await measure.idle();
      const said = warn.mock.calls.map((call) => String(call[0])).filter((text) => /measur/i.test(text));
      expect(said).toEqual([expect.stringContaining('Clip lengths are not measured ahead')]);
    } finally {
      if (previous === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = previous;
      await other.close();
    }
  });

  it('shuts down at once with a measurement still waiting for its quiet time, which never runs', async () => {
    const other = await startServer();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    other.app.get(MeasureAhead).delayMs = 1_000;
    const { client } = await newAdmin(other);
    const book = (await client.post<{ data: { id: number } }>('admin/book', bookForm())).body.data;
    expect(
      (await client.post('admin/chapter', { title: 'Eins', chapter_no: 1, book_id: book.id })).status,
    ).toBe(200);
    // Resolves (the spec's timeout would catch a hang) without waiting for the quiet time to pass.
    await other.close();
    // A timer left behind would fire now and fail on the closed database.
    await new Promise((done) => setTimeout(done, 1_500));
    expect(
      warn.mock.calls.filter((call) => call[1] === MeasureAhead.name || /measure/i.test(String(call[0]))),
    ).toEqual([]);
  });
});
