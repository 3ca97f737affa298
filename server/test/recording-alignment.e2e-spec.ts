import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ENGLISH,
  ITALIAN,
  makeSampleRecording,
  type SampleRecording,
} from '../publishing/alignment/sample-recordings';
import { DataSource } from 'typeorm';
import { AlignmentJobs } from '../publishing/imports/alignment-jobs';
import { StagedImport } from '../publishing/imports/staged-import.entity';
import { runFfmpeg } from '../publishing/imports/ffmpeg';
import { ApiClient, newAdmin } from './api-client';
import { bookForm } from './fixtures';
import { startServer, type TestServer } from './harness';

jest.setTimeout(240_000);

interface Row {
  n: number;
  phrase: string;
  start_ms: number;
  end_ms: number;
  confidence?: number;
  error: string | null;
}
interface Ready {
  import_id: string;
  status: 'ready';
  recording: {
    duration_ms: number;
    cuts: number[];
    start_ms: number;
    end_ms: number;
    unsure_below: number | null;
    unsure: number;
  };
  notice: string | null;
  rows: Row[];
  errors: string[];
}
interface Aligning {
  import_id: string;
  status: 'aligning';
  progress: { percent: number; eta_s: number };
}

const form = (phrases: readonly string[], recording: Buffer, name = 'chapter.mp3') => {
  const data = new FormData();
  data.set('text', new Blob([phrases.join('\n') + '\n']), 'chapter.txt');
  data.set('recording', new Blob([recording]), name);
  return data;
};

/**
 * The chapter import with a recording of a book whose language has a reference voice: aligned to its text
 * (docs/alignment.md), through the API, on whichever database the suite runs on. The recordings are made
 * by Festival (server/publishing/alignment/sample-recordings.ts): not the reference voice.
 */
describe('Importing a chapter from a narrated recording, aligned to its text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lingonovel-aligned-import-'));
  let server: TestServer;
  let admin: ApiClient;
  let sample: SampleRecording;
  let recording: Buffer;

  const newChapter = async (language: string) => {
    const book = await admin.post<{ data: { id: number } }>('admin/book', bookForm({ language }));
    expect(book.status).toBe(200);
    const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: 'One',
      chapter_no: 1,
      book_id: book.body.data.id,
    });
    return chapter.body.data.id;
  };

  const phrasesOf = async (chapterId: number) =>
    (
      await admin.get<{ data: { phrases: Array<{ phrase: string; duration_ms: number | null }> } }>(
        `admin/phrase?chapter_id=${chapterId}`,
      )
    ).body.data.phrases;

  beforeAll(async () => {
    sample = await makeSampleRecording(
      ENGLISH,
      { sentences: 12, intro: 'speech', tempo: 1.04, seed: 21, noiseDb: 45 },
      dir,
    );
    recording = readFileSync(sample.file);
    server = await startServer();
    admin = (await newAdmin(server)).client;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the announcement out, cuts between the sentences, and commits from the start to the end', async () => {
    const chapterId = await newChapter('en');
    const staged = await admin.post<{ data: Ready }>(
      `admin/chapter/${chapterId}/import`,
      form(sample.phrases, recording),
    );
    expect(staged.status).toBe(200);
    const data = staged.body.data;
    expect(data.status).toBe('ready');
    expect(data.notice).toBeNull();
    expect(data.errors).toEqual([]);
    // Every cut inside the true gap between its two sentences, 50 ms either side.
    const right = data.recording.cuts.filter(
      (cut, n) => cut >= sample.gaps[n].startMs - 50 && cut <= sample.gaps[n].endMs + 50,
    );
    expect(right.length).toBeGreaterThanOrEqual(data.recording.cuts.length - 1);
    // The spoken announcement is before the text: left out, and none of the first sentence with it.
    expect(data.recording.start_ms).toBeGreaterThan(sample.textStartMs - 1_500);
    expect(data.recording.start_ms).toBeLessThanOrEqual(sample.textStartMs + 50);
    expect(data.recording.end_ms).toBeGreaterThanOrEqual(sample.textEndMs - 50);
    expect(data.rows[0].start_ms).toBe(data.recording.start_ms);
    expect(data.rows.at(-1)!.end_ms).toBe(data.recording.end_ms);
    expect(data.recording.unsure_below).toBe(0.5);
    const confidences = data.rows.map((row) => row.confidence!);
    expect(confidences.every((c) => c >= 0 && c <= 1)).toBe(true);
    expect(data.recording.unsure).toBe(confidences.filter((c) => c < 0.5).length);
    expect(data.recording.unsure).toBeLessThanOrEqual(1);

    // The text's start and end move like the cuts, and are checked as they are.
    const id = data.import_id;
    const { cuts } = data.recording;
    for (const [body, field] of [
      [{ cuts, start_ms: cuts[0] }, 'cuts'],
      [{ cuts, end_ms: data.recording.duration_ms + 1 }, 'end_ms'],
      [{ cuts, start_ms: -5 }, 'start_ms'],
      [{ cuts, start_ms: 1.5 }, 'start_ms'],
    ] as const) {
      const bad = await admin.put<{ errors: Record<string, string[]> }>(
        `admin/import/${id}/boundaries`,
        body,
      );
      expect([body, bad.status, Object.keys(bad.body.errors)]).toEqual([body, 422, [field]]);
    }
    const startMs = data.recording.start_ms + 100;
    const moved = await admin.put<{ data: Ready }>(`admin/import/${id}/boundaries`, {
      cuts,
      start_ms: startMs,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.recording.start_ms).toBe(startMs);
    expect(moved.body.data.rows[0].start_ms).toBe(startMs);
    expect(moved.body.data.recording.end_ms).toBe(data.recording.end_ms);

    const committed = await admin.post(`admin/import/${id}/commit`);
    expect(committed.status).toBe(200);
    const phrases = await phrasesOf(chapterId);
    expect(phrases.map((p) => p.phrase)).toEqual(sample.phrases);
    // The first clip runs from the text's start, the last to its end: nothing of the announcement.
    const bounds = [startMs, ...cuts, data.recording.end_ms];
    phrases.forEach((phrase, i) =>
      expect(Math.abs(phrase.duration_ms! - (bounds[i + 1] - bounds[i]))).toBeLessThan(100),
    );
  });

  it('keeps the text inside a recording that stops right after it, and commits edges a few ms from its ends', async () => {
    const chapterId = await newChapter('en');
    const clipped = join(dir, 'clipped.mp3');
    // The recording ends 20 ms after its last word: the aligner's edge (100 ms wide) is past its end.
    await runFfmpeg([
      '-v',
      'error',
      '-i',
      sample.file,
      '-t',
      String((sample.textEndMs + 20) / 1000),
      '-y',
      clipped,
    ]);
    const staged = await admin.post<{ data: Ready }>(
      `admin/chapter/${chapterId}/import`,
      form(sample.phrases, readFileSync(clipped)),
    );
    const { import_id: id, recording } = staged.body.data;
    expect(recording.end_ms).toBeLessThanOrEqual(recording.duration_ms);
    expect(Math.max(...recording.cuts)).toBeLessThan(recording.end_ms - 49);
    // The preview's own boundaries, sent back as the editor does, are taken.
    const same = await admin.put<{ data: Ready }>(`admin/import/${id}/boundaries`, {
      cuts: recording.cuts,
      start_ms: recording.start_ms,
      end_ms: recording.end_ms,
    });
    expect(same.status).toBe(200);
    // An edge typed a few ms from the recording's own is the recording's: no sliver is cut off.
    const near = await admin.put<{ data: Ready }>(`admin/import/${id}/boundaries`, {
      cuts: recording.cuts,
      start_ms: 20,
      end_ms: recording.duration_ms - 1,
    });
    expect(near.status).toBe(200);
    expect([near.body.data.recording.start_ms, near.body.data.recording.end_ms]).toEqual([
      0,
      recording.duration_ms,
    ]);
    // A text that would end before it starts names the edge that was moved.
    const before = await admin.put<{ errors: Record<string, string[]> }>(`admin/import/${id}/boundaries`, {
      cuts: recording.cuts,
      end_ms: 0,
    });
    expect([before.status, Object.keys(before.body.errors)]).toEqual([422, ['end_ms']]);
    const committed = await admin.post(`admin/import/${id}/commit`);
    expect(committed.status).toBe(200);
    expect(await phrasesOf(chapterId)).toHaveLength(sample.phrases.length);

    // One phrase: its one segment, too, is 50 ms at least.
    const one = await admin.post<{ data: Ready }>(
      `admin/chapter/${chapterId}/import`,
      form(sample.phrases.slice(0, 1), readFileSync(clipped)),
    );
    const sliver = await admin.put<{ errors: Record<string, string[]> }>(
      `admin/import/${one.body.data.import_id}/boundaries`,
      { cuts: [], start_ms: 1_000, end_ms: 1_001 },
    );
    expect([sliver.status, sliver.body.errors]).toEqual([
      422,
      { cuts: ['Segment 1 would be shorter than 50 ms.'] },
    ]);
  });

  it('catches a recording of another text: named in the preview, committed only when confirmed', async () => {
    const chapterId = await newChapter('en');
    // Twelve other sentences of the same language.
    const other = ENGLISH.sentences.slice(12, 24);
    const staged = await admin.post<{ data: Ready }>(
      `admin/chapter/${chapterId}/import`,
      form(other, recording),
    );
    expect(staged.status).toBe(200);
    const { data } = staged.body;
    expect(data.recording.unsure).toBeGreaterThan(other.length / 2);
    const warning = `${data.recording.unsure} of ${other.length} rows are unsure: this recording may be of another text, or in another language than the book's. Listen to a few segments; to keep it anyway, commit with "confirm": true.`;
    expect(data.errors).toEqual([warning]);
    const refused = await admin.post<{ message: string }>(`admin/import/${data.import_id}/commit`);
    expect([refused.status, refused.body.message]).toEqual([422, warning]);
    expect(await phrasesOf(chapterId)).toEqual([]);
    const bad = await admin.post(`admin/import/${data.import_id}/commit`, { confirm: 'yes' });
    expect(bad.status).toBe(422);
    const confirmed = await admin.post(`admin/import/${data.import_id}/commit`, { confirm: true });
    expect(confirmed.status).toBe(200);
    expect((await phrasesOf(chapterId)).map((p) => p.phrase)).toEqual(other);
  });

  it('catches a recording in another language than the book', async () => {
    const chapterId = await newChapter('it');
    const staged = await admin.post<{ data: Ready }>(
      `admin/chapter/${chapterId}/import`,
      form(ITALIAN.sentences.slice(0, 12), recording),
    );
    expect(staged.status).toBe(200);
    expect(staged.body.data.errors).toEqual([
      expect.stringMatching(/rows are unsure: this recording may be/),
    ]);
    expect((await admin.post(`admin/import/${staged.body.data.import_id}/commit`)).status).toBe(422);
  });

  it('names a silent recording and one too short for its text; the commit is refused and nothing is added', async () => {
    const chapterId = await newChapter('en');
    const silent = join(dir, 'silent.mp3');
    await runFfmpeg([
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=22050:cl=mono',
      '-t',
      '10',
      '-y',
      silent,
    ]);
    const twoSeconds = join(dir, 'short.mp3');
    await runFfmpeg(['-v', 'error', '-i', sample.file, '-t', '2', '-y', twoSeconds]);
    const thirty = join(dir, 'thirty.mp3');
    await runFfmpeg(['-v', 'error', '-i', sample.file, '-t', '30', '-y', thirty]);
    const many = (n: number) => Array.from({ length: n }, (_, i) => `${ENGLISH.sentences[i % 24]} ${i}`);
    const cases: Array<[string, string[], RegExp]> = [
      [silent, sample.phrases.slice(0, 5), /^The recording is silent: check that this is the right file\.$/],
      [twoSeconds, many(50), /^The recording \(2\.0 s\) is too short for 50 phrases/],
      [thirty, many(2000), /^The recording \(30\.0 s\) is too short for 2000 phrases/],
    ];
    for (const [file, phrases, problem] of cases) {
      const staged = await admin.post<{ data: Ready }>(
        `admin/chapter/${chapterId}/import`,
        form(phrases, readFileSync(file)),
      );
      expect(staged.status).toBe(200);
      expect(staged.body.data.errors).toEqual([expect.stringMatching(problem)]);
      const commit = await admin.post(`admin/import/${staged.body.data.import_id}/commit`, { confirm: true });
      expect(commit.status).toBe(422);
      await admin.delete(`admin/import/${staged.body.data.import_id}`);
    }
    expect(await phrasesOf(chapterId)).toEqual([]);
    // A file that is not audio at all is refused at once, as before.
    const corrupt = await admin.post<{ errors: Record<string, string[]> }>(
      `admin/chapter/${chapterId}/import`,
      form(sample.phrases, Buffer.from('ID3' + 'x'.repeat(5000)), 'broken.mp3'),
    );
    expect(corrupt.status).toBe(422);
    expect(Object.keys(corrupt.body.errors)).toEqual(['recording']);
  });

  it('aligns a long recording as a job that answers 202 with its progress, and resumes after a restart', async () => {
    const chapterId = await newChapter('en');
    // Four times the sentences (about three minutes): the next server's job reports its progress a while.
    const long = await makeSampleRecording(
      ENGLISH,
      { sentences: 48, intro: 'music', tempo: 0.96, seed: 22, noiseDb: 45 },
      dir,
    );
    // Every recording counts as long here.
    const first = server.app.get(AlignmentJobs);
    first.inlineMaxMs = 0;
    // This server's job lasts until the stop, as a long alignment on a slow machine does: what is tested is
    // the stop and the take-over, not whether this machine aligns faster than the requests below (a quiet
    // one once finished first). The next server aligns for real.
    const aligner = first as unknown as { align: (...args: unknown[]) => Promise<unknown> };
    jest.spyOn(aligner, 'align').mockImplementation(
      (...args) =>
        new Promise((_, reject) => {
          const signal = args[4] as AbortSignal;
          signal.addEventListener('abort', () => reject(signal.reason as Error));
        }),
    );
    const staged = await admin.post<{ data: Aligning }>(
      `admin/chapter/${chapterId}/import`,
      form(long.phrases, readFileSync(long.file)),
    );
    expect(staged.status).toBe(202);
    const id = staged.body.data.import_id;
    expect(staged.body.data).toEqual({
      import_id: id,
      status: 'aligning',
      progress: { percent: 0, eta_s: expect.any(Number) },
    });
    expect(staged.body.data.progress.eta_s).toBeGreaterThan(0);
    // Not to be committed or moved while it is aligned.
    const early = await admin.post<{ message: string }>(`admin/import/${id}/commit`);
    expect([early.status, early.body.message]).toEqual([
      409,
      'The recording is still being aligned to its text: look again at the import in a moment.',
    ]);
    expect((await admin.put(`admin/import/${id}/boundaries`, { cuts: [] })).status).toBe(409);
    const aligning = await admin.get<{ data: Aligning }>(`admin/import/${id}`);
    expect([aligning.status, aligning.body.data.status]).toEqual([202, 'aligning']);

    // The server stops in the middle: the job is given up, and the next server takes it over.
    const storage = server.storageDir;
    await server.close(true);
    expect(first.finished).toBe(0);
    server = await startServer(storage);
    admin = (await newAdmin(server)).client;
    const second = server.app.get(AlignmentJobs);
    // Progress as the job reports it, until it is ready.
    const seen: number[] = [];
    let done: { status: number; body: { data: Ready | Aligning } };
    for (;;) {
      done = await admin.get<{ data: Ready | Aligning }>(`admin/import/${id}`);
      if (done.body.data.status !== 'aligning') break;
      expect(done.status).toBe(202);
      seen.push(done.body.data.progress.percent);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(second.finished).toBe(1);
    expect(done.status).toBe(200);
    const ready = done.body.data;
    expect(ready.errors).toEqual([]);
    const right = ready.recording.cuts.filter(
      (cut, n) => cut >= long.gaps[n].startMs - 50 && cut <= long.gaps[n].endMs + 50,
    );
    expect(right.length / ready.recording.cuts.length).toBeGreaterThanOrEqual(0.9);
    expect(ready.recording.start_ms).toBeGreaterThan(long.textStartMs - 4_000);
    expect((await admin.post(`admin/import/${id}/commit`)).status).toBe(200);
  });

  it('leaves a job another instance holds alone while its lease lives, and takes it over once it runs out', async () => {
    const chapterId = await newChapter('en');
    const staged = await admin.post<{ data: Ready }>(
      `admin/chapter/${chapterId}/import`,
      form(sample.phrases, recording),
    );
    const id = staged.body.data.import_id;
    // As another instance would have left it: being aligned, under its lease, nothing aligned yet.
    const rows = server.app.get(DataSource).getRepository(StagedImport);
    const row = (await rows.findOneBy({ id }))!;
    const manifest = JSON.parse(row.manifest) as { recording: Record<string, unknown> };
    delete manifest.recording.start_ms;
    delete manifest.recording.end_ms;
    delete manifest.recording.confidence;
    await rows.update(
      { id },
      {
        status: 'aligning',
        manifest: JSON.stringify(manifest),
        progress: 40,
        etaS: 3,
        leaseOwner: 'elsewhere',
        leaseUntilMs: Date.now() + 60_000,
      },
    );
    const jobs = server.app.get(AlignmentJobs);
    const finished = jobs.finished;
    jobs.kick();
    await jobs.idle();
    expect(jobs.finished).toBe(finished);
    const held = await admin.get<{ data: Aligning }>(`admin/import/${id}`);
    expect([held.status, held.body.data.progress]).toEqual([202, { percent: 40, eta_s: 3 }]);
    expect((await rows.findOneBy({ id }))!.leaseOwner).toBe('elsewhere');

    // That instance died: its lease is not renewed, and runs out.
    await rows.update({ id }, { leaseUntilMs: Date.now() - 1 });
    jobs.kick();
    await jobs.idle();
    expect(jobs.finished).toBe(finished + 1);
    const done = await admin.get<{ data: Ready }>(`admin/import/${id}`);
    expect(done.status).toBe(200);
    expect(done.body.data.recording.start_ms).toBeGreaterThan(0);
    expect(done.body.data.rows.every((r) => typeof r.confidence === 'number')).toBe(true);
    expect(await rows.findOneBy({ id })).toMatchObject({
      status: 'staged',
      leaseOwner: null,
      progress: null,
    });
  });
});
