import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ffmpegInput,
  FFMPEG_MISSING_MESSAGE,
  probeDurationMs,
  runFfmpeg,
} from '../publishing/imports/ffmpeg';
import { randomUUID } from 'node:crypto';
import { MAX_PEAK_PAIRS, type RecordingPeaks as Peaks } from '../publishing/imports/recording-peaks';
import { IMPORT_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import { ApiClient, newAdmin, newMember } from './api-client';
import { bookForm } from './fixtures';
import { startServer, type TestServer } from './harness';
import { failWithoutFfmpeg } from './ffmpeg-present';

const DEMO = join(__dirname, '..', 'seed', 'demo', 'audio', 'der-leuchtturmwarter');
const CLIPS = ['c1-p1', 'c1-p2', 'c1-p3'].map((name) => join(DEMO, `${name}.mp3`));
const PAUSE_MS = 1000;

interface Preview {
  data: {
    import_id: string;
    recording: {
      url: string;
      duration_ms: number;
      cuts: number[];
      start_ms: number;
      end_ms: number;
      unsure_below: number | null;
      unsure: number;
    };
    notice: string | null;
    rows: Array<{ n: number; phrase: string; start_ms: number; end_ms: number; error: string | null }>;
  };
}

const importForm = (text: string, recording: Buffer) => {
  const data = new FormData();
  data.set('text', new Blob([text]), 'chapter.txt');
  data.set('recording', new Blob([recording]), 'chapter.mp3');
  return data;
};

describe('Importing a chapter from one recording', () => {
  let server: TestServer;
  let admin: ApiClient;
  let chapterId: number;
  let bookCode: string;
  let dir: string;
  let recording: Buffer;
  /** Where each inserted pause lies in the recording. */
  const pauses: Array<{ startMs: number; endMs: number }> = [];

  beforeAll(async () => {
    failWithoutFfmpeg();
    dir = await mkdtemp(join(tmpdir(), 'lingonovel-recording-'));
    // clip 1, a second of silence, clip 2, a second, clip 3: one MP3, as a narrator's editor saves it.
    let at = 0;
    for (const [i, clip] of CLIPS.entries()) {
      at += await probeDurationMs(clip);
      if (i < CLIPS.length - 1) {
        pauses.push({ startMs: at, endMs: at + PAUSE_MS });
        at += PAUSE_MS;
      }
    }
    const inputs: string[] = [];
    CLIPS.forEach((clip, i) => {
      inputs.push('-i', ffmpegInput(clip));
      if (i < CLIPS.length - 1)
        inputs.push('-f', 'lavfi', '-i', `anullsrc=r=44100:cl=mono:d=${PAUSE_MS / 1000}`);
    });
    const count = CLIPS.length * 2 - 1;
    const chain = Array.from(
      { length: count },
      (_, i) => `[${i}:a]aformat=sample_rates=44100:channel_layouts=mono[a${i}];`,
    ).join('');
    const labels = Array.from({ length: count }, (_, i) => `[a${i}]`).join('');
    const file = join(dir, 'chapter.mp3');
    await runFfmpeg([
      '-v',
      'error',
      ...inputs,
      '-filter_complex',
      `${chain}${labels}concat=n=${count}:v=0:a=1[out]`,
      '-map',
      '[out]',
      '-c:a',
      'libmp3lame',
      '-q:a',
      '4',
      file,
    ]);
    recording = await readFile(file);

    server = await startServer();
    admin = (await newAdmin(server)).client;
    const book = await admin.post<{ data: { id: number; book_code: string } }>('admin/book', bookForm());
    bookCode = book.body.data.book_code;
    chapterId = (
      await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: 'Eins',
        chapter_no: 1,
        book_id: book.body.data.id,
      })
    ).body.data.id;
  });
  /** The names of an import's files in the import store (folder or bucket). */
  const stagedFiles = async (id: string) =>
    (await server.app.get<symbol, MediaStore>(IMPORT_STORE).list(`${id}/`)).map((o) => o.key.split('/')[1]);

  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('cuts at the pauses, lets the boundaries move, and commits the segments as clips', async () => {
    const staged = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm('Die Fähre kam.\nHenrik las.\nMan wollte automatisieren.\n', recording),
    );
    expect(staged.status).toBe(200);
    const { data } = staged.body;
    // A book without a language has no reference voice: its recording is cut at its pauses, and it says so.
    expect(data.notice).toBe(
      'The book has no language: the recording is cut at its pauses, without its text (docs/import.md lists the languages that are aligned).',
    );
    expect(data.recording).toMatchObject({
      start_ms: 0,
      end_ms: data.recording.duration_ms,
      unsure_below: null,
      unsure: 0,
    });
    expect(data.rows.map((r) => [r.n, r.phrase, r.error])).toEqual([
      [1, 'Die Fähre kam.', null],
      [2, 'Henrik las.', null],
      [3, 'Man wollte automatisieren.', null],
    ]);
    // Each cut falls inside its pause (the clips' own trailing and leading silences widen it a little).
    data.recording.cuts.forEach((cut, i) => {
      expect(cut).toBeGreaterThan(pauses[i].startMs - 500);
      expect(cut).toBeLessThan(pauses[i].endMs + 500);
    });
    expect(data.rows[0].start_ms).toBe(0);
    expect(data.rows[1].start_ms).toBe(data.recording.cuts[0]);
    expect(data.rows[2].end_ms).toBe(data.recording.duration_ms);
    const played = await fetch(server.baseUrl + data.recording.url);
    expect(played.status).toBe(200);
    expect(Buffer.from(await played.arrayBuffer()).equals(recording)).toBe(true);

    const moved = [data.recording.cuts[0] + 50, data.recording.cuts[1] - 50];
    const adjusted = await admin.put<Preview>(`admin/import/${data.import_id}/boundaries`, { cuts: moved });
    expect(adjusted.body.data.recording.cuts).toEqual(moved);
    for (const cuts of [[moved[1], moved[0]], [moved[0]], [0, moved[1]], [moved[0], 1e9], 'x']) {
      const bad = await admin.put<{ errors: Record<string, string[]> }>(
        `admin/import/${data.import_id}/boundaries`,
        { cuts },
      );
      expect([cuts, bad.status]).toEqual([cuts, 422]);
    }

    const committed = await admin.post(`admin/import/${data.import_id}/commit`);
    expect(committed.body).toEqual({
      message: '3 phrases have been added to the chapter.',
      data: { added: 3, book_code: bookCode, chapter_no: 1 },
    });
    const phrases = await admin.get<{
      data: { phrases: Array<{ phrase: string; duration_ms: number | null }> };
    }>(`admin/phrase?chapter_id=${chapterId}`);
    const bounds = [0, ...moved, data.recording.duration_ms];
    phrases.body.data.phrases.forEach((phrase, i) => {
      expect(Math.abs(phrase.duration_ms! - (bounds[i + 1] - bounds[i]))).toBeLessThan(100);
    });
  });

  it("answers the recording's waveform: min/max pairs, silent in the pauses, computed once", async () => {
    const staged = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm('Die Fähre kam.\nHenrik las.\nMan wollte automatisieren.\n', recording),
    );
    const { import_id: id, recording: staging } = staged.body.data;
    expect(await stagedFiles(id)).not.toContain('peaks.json');
    const res = await admin.get<{ data: Peaks }>(`admin/import/${id}/peaks`);
    expect(res.status).toBe(200);
    const peaks = res.body.data;
    expect(Object.keys(peaks).sort()).toEqual(['bits', 'data', 'duration_ms', 'ms_per_pair']);
    expect(peaks.duration_ms).toBe(staging.duration_ms);
    expect(peaks.bits).toBe(8);
    // A pair per 10 ms on a recording this short, each the lowest then the highest sample.
    expect(peaks.ms_per_pair).toBeCloseTo(10, 0);
    const pairs = peaks.data.length / 2;
    expect(Number.isInteger(pairs)).toBe(true);
    expect(Math.abs(pairs * peaks.ms_per_pair - staging.duration_ms)).toBeLessThan(2 * peaks.ms_per_pair);
    expect(peaks.data.every((n) => Number.isInteger(n) && n >= -127 && n <= 127)).toBe(true);
    for (let i = 0; i < peaks.data.length; i += 2)
      expect(peaks.data[i]).toBeLessThanOrEqual(peaks.data[i + 1]);
    const loudest = (fromMs: number, toMs: number) => {
      let most = 0;
      for (let pair = Math.ceil(fromMs / peaks.ms_per_pair); pair * peaks.ms_per_pair < toMs; pair++)
        most = Math.max(most, Math.abs(peaks.data[pair * 2]), Math.abs(peaks.data[pair * 2 + 1]));
      return most;
    };
    // The inserted pauses are digital silence (an MP3's edges blur them by a few ms); speech is not.
    for (const pause of pauses)
      expect(loudest(pause.startMs + 100, pause.endMs - 100)).toBeLessThanOrEqual(1);
    expect(loudest(0, pauses[0].startMs)).toBeGreaterThan(10);
    // Kept beside the recording: a second request reads it, and answers the same.
    expect(await stagedFiles(id)).toContain('peaks.json');
    expect((await admin.get(`admin/import/${id}/peaks`)).body).toEqual(res.body);
    await admin.delete(`admin/import/${id}`);
    expect((await admin.get(`admin/import/${id}/peaks`)).status).toBe(404);
  });

  it('keeps the waveform of a long recording small', async () => {
    // Ten minutes of a tone, as WAV: 20,000 pairs at most, whatever the length.
    const file = join(dir, 'long.wav');
    await runFfmpeg([
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=220:sample_rate=8000:duration=600',
      '-c:a',
      'pcm_s16le',
      file,
    ]);
    const staged = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm('Eins.\nZwei.\n', await readFile(file)),
    );
    expect(staged.status).toBe(200);
    const id = staged.body.data.import_id;
    const res = await admin.get<{ data: Peaks }>(`admin/import/${id}/peaks`);
    expect(res.status).toBe(200);
    expect(res.body.data.data.length).toBeLessThanOrEqual(MAX_PEAK_PAIRS * 2);
    expect(res.body.data.data.length).toBeGreaterThan((MAX_PEAK_PAIRS - 5) * 2);
    expect(res.body.data.ms_per_pair).toBeCloseTo(30, 0);
    expect(res.text.length).toBeLessThan(250_000);
    await admin.delete(`admin/import/${id}`);
  });

  it('answers 404 for an import without a recording or none at all, 401 without a token, 403 to a member', async () => {
    const clips = new FormData();
    clips.set('text', new Blob(['Eins.\n']), 'c.txt');
    clips.append('clips', new Blob([await readFile(CLIPS[0])]), '1.mp3');
    const staged = await admin.post<Preview>(`admin/chapter/${chapterId}/import`, clips);
    const id = staged.body.data.import_id;
    expect(await admin.get(`admin/import/${id}/peaks`)).toMatchObject({
      status: 404,
      body: { message: 'This import has no recording.' },
    });
    expect((await admin.get(`admin/import/${randomUUID()}/peaks`)).status).toBe(404);
    expect((await admin.get('admin/import/not-an-id/peaks')).status).toBe(404);
    expect((await new ApiClient(server).get(`admin/import/${id}/peaks`)).status).toBe(401);
    expect((await (await newMember(server)).client.get(`admin/import/${id}/peaks`)).status).toBe(403);
    await admin.delete(`admin/import/${id}`);
  });

  it('halves the longest segments when the pauses are too few, and says so', async () => {
    const staged = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm(Array.from({ length: 40 }, (_, i) => `Satz ${i + 1}.`).join('\n'), recording),
    );
    // Three clips hold a few short pauses of their own, far fewer than 39.
    expect(staged.body.data.recording.cuts).toHaveLength(39);
    expect(staged.body.data.notice).toMatch(
      /: the recording is cut at its pauses, without its text \(.*\)\. Found only \d+ pauses for 40 phrases: the other boundaries are guesses/,
    );
    await admin.delete(`admin/import/${staged.body.data.import_id}`);
  });

  it('refuses a recording too short for its phrases, and one ffmpeg cannot read', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `Satz ${i + 1}.`).join('\n');
    const staged = await admin.post<Preview & { data: { errors: string[] } }>(
      `admin/chapter/${chapterId}/import`,
      importForm(lines, recording),
    );
    expect(staged.status).toBe(200);
    expect(staged.body.data.errors[0]).toMatch(/^The recording \([\d.]+ s\) is too short for 1000 phrases/);
    const refused = await admin.post(`admin/import/${staged.body.data.import_id}/commit`);
    expect(refused.status).toBe(422);
    await admin.delete(`admin/import/${staged.body.data.import_id}`);
    // A WAV header with a format ffmpeg does not know: audio by its first bytes, unreadable all the same.
    const wav = Buffer.alloc(44);
    wav.write('RIFF', 0);
    wav.writeUInt32LE(36, 4);
    wav.write('WAVEfmt ', 8);
    wav.writeUInt32LE(16, 16);
    wav.writeUInt16LE(0x1234, 20);
    wav.writeUInt16LE(1, 22);
    wav.writeUInt32LE(44100, 24);
    wav.write('data', 36);
    const broken = await admin.post<{ errors: Record<string, string[]> }>(
      `admin/chapter/${chapterId}/import`,
      importForm('Eins.\nZwei.\n', wav),
    );
    expect(broken.status).toBe(422);
    expect(Object.keys(broken.body.errors)).toEqual(['recording']);
  });

  it('answers 503 with the install command when ffmpeg is missing; clips still import', async () => {
    const saved = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = '/nonexistent/ffmpeg';
    try {
      const refused = await admin.post(`admin/chapter/${chapterId}/import`, importForm('Eins.\n', recording));
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ message: FFMPEG_MISSING_MESSAGE });
      const clips = new FormData();
      clips.set('text', new Blob(['Eins.\n']), 'c.txt');
      clips.append('clips', new Blob([await readFile(CLIPS[0])]), '1.mp3');
      expect((await admin.post(`admin/chapter/${chapterId}/import`, clips)).status).toBe(200);
    } finally {
      if (saved === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = saved;
    }
  });
});
