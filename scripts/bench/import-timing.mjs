// Publishing a chapter: a generated chapter of 300 phrases with 300 clips (about 10 MB zipped) is staged
// (the preview) and committed through the built server's API, with the server's RSS sampled meanwhile;
// then a 10-minute recording is split at its pauses with ffmpeg.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yazl from 'yazl';

const PHRASES = 300;
const root = new URL('../..', import.meta.url).pathname;
const DEMO_AUDIO = join(root, 'server/seed/demo/audio');

const demoClips = () =>
  readdirSync(DEMO_AUDIO)
    .flatMap((book) => readdirSync(join(DEMO_AUDIO, book)).map((name) => join(DEMO_AUDIO, book, name)))
    .filter((path) => path.endsWith('.mp3'))
    .sort();

/** The server's resident memory, in bytes (Linux). */
function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/** Runs `work` while sampling the server's RSS every 20 ms: its duration and the peak growth. */
async function sampled(pid, work) {
  const before = rss(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 20);
  const started = performance.now();
  try {
    const result = await work();
    return { ms: performance.now() - started, growth: Math.max(0, peak - before), result };
  } finally {
    clearInterval(timer);
  }
}

/** Writes the files (name → path on disk) into a zip at `path`, stored uncompressed; answers its size. */
export function zipFile(entries, path) {
  const zip = new yazl.ZipFile();
  for (const [name, file] of entries) zip.addFile(file, name, { compress: false });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks = [];
    zip.outputStream.on('data', (chunk) => chunks.push(chunk));
    zip.outputStream.on('end', () => {
      writeFileSync(path, Buffer.concat(chunks));
      resolve(statSync(path).size);
    });
    zip.outputStream.on('error', reject);
  });
}

export const ffmpeg = (args) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);

/** The demo administrator's Authorization header (`--demo` writes the account to demo-admin.json). */
export async function adminHeaders(base, storage) {
  const { email, password } = JSON.parse(readFileSync(join(storage, 'demo-admin.json'), 'utf8'));
  const res = await fetch(`${base}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`admin login: ${res.status} ${await res.text()}`);
  return { Authorization: `Bearer ${(await res.json()).token}` };
}

/**
 * A new book through the admin API (`fields` over a bench book's, the demo cover, `sampleAudio` or the
 * first demo clip as its sample) with one empty chapter: the book's id and code, and the chapter's id.
 */
export async function newBookChapter(
  base,
  auth,
  { fields = {}, chapter = 'Benchmark chapter', sampleAudio } = {},
) {
  const form = new FormData();
  const all = {
    title: 'Benchmark book',
    author: 'Bench',
    narrated_by: 'Bench',
    hours: '0',
    minutes: '1',
    description: 'A book made by the benchmark.',
    difficulty: 'Easy',
    sample_text: 'Phrase number 1.',
    language: 'fr',
    cefr: 'A2',
    ...fields,
  };
  for (const [name, value] of Object.entries(all)) form.set(name, value);
  const cover = readFileSync(join(root, 'server/seed/demo/covers/le-petit-voyage.jpg'));
  form.set('book_image', new Blob([cover], { type: 'image/jpeg' }), 'cover.jpg');
  const sample = readFileSync(sampleAudio ?? demoClips()[0]);
  form.set('sample_audio', new Blob([sample], { type: 'audio/mpeg' }), 'sample.mp3');
  const book = await fetch(`${base}/api/v1/admin/book`, { method: 'POST', headers: auth, body: form });
  if (!book.ok) throw new Error(`new book: ${book.status} ${await book.text()}`);
  const { id, book_code: code } = (await book.json()).data;
  const made = await fetch(`${base}/api/v1/admin/chapter`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: chapter, chapter_no: 1, book_id: id }),
  });
  if (!made.ok) throw new Error(`new chapter: ${made.status} ${await made.text()}`);
  return { bookId: id, code, chapterId: (await made.json()).data.id };
}

/** Stages a chapter import (its text and a zip of its clips): the preview, refused when a row has a problem. */
export async function previewImport(base, auth, chapterId, tsv, zip) {
  const form = new FormData();
  form.set('text', new Blob([tsv]), 'chapter.tsv');
  form.set('clips', new Blob([zip]), 'clips.zip');
  const res = await fetch(`${base}/api/v1/admin/chapter/${chapterId}/import`, {
    method: 'POST',
    headers: auth,
    body: form,
  });
  if (!res.ok) throw new Error(`preview: ${res.status} ${await res.text()}`);
  const preview = (await res.json()).data;
  if (preview.errors.length) throw new Error(`preview problems: ${preview.errors.join('; ')}`);
  return preview;
}

/** Commits a staged import: answers the number of phrases added. */
export async function commitImport(base, auth, preview) {
  const res = await fetch(`${base}/api/v1/admin/import/${preview.import_id}/commit`, {
    method: 'POST',
    headers: auth,
  });
  if (!res.ok) throw new Error(`commit: ${res.status} ${await res.text()}`);
  return (await res.json()).data.added;
}

export async function measureImport(base, storage, pid) {
  const work = mkdtempSync(join(tmpdir(), 'lingonovel-bench-import-'));
  try {
    // Clips at 128 kbps (the demo's are spoken-word 64 kbps): 300 of them make about 10 MB.
    const sources = demoClips();
    const clips = sources.map((source, i) => {
      const out = join(work, `source-${i}.mp3`);
      ffmpeg(['-i', source, '-c:a', 'libmp3lame', '-b:a', '128k', out]);
      return out;
    });
    const entries = Array.from({ length: PHRASES }, (_, i) => [
      `clips/${i + 1}.mp3`,
      clips[i % clips.length],
    ]);
    const zipPath = join(work, 'clips.zip');
    const zipBytes = await zipFile(entries, zipPath);
    const tsv = ['phrase\tdictionary\taudio']
      .concat(
        entries.map(
          ([name], i) => `Phrase number ${i + 1}.\tword — meaning | other — thing\t${name.slice(6)}`,
        ),
      )
      .join('\n');

    const auth = await adminHeaders(base, storage);
    const book = (await (await fetch(`${base}/api/v1/admin/book`, { headers: auth })).json()).data[0];
    const chapter = await (
      await fetch(`${base}/api/v1/admin/chapter`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'Benchmark chapter', chapter_no: 900, book_id: book.id }),
      })
    ).json();

    const zip = readFileSync(zipPath);
    const preview = await sampled(pid, () => previewImport(base, auth, chapter.data.id, tsv, zip));
    const commit = await sampled(pid, () => commitImport(base, auth, preview.result));

    // A 10-minute recording: the demo clips, with pauses of 0.4 to 1 s, over and over.
    const split = join(work, 'split');
    mkdirSync(split);
    const pieces = [];
    let seconds = 0;
    for (let i = 0; seconds < 600; i++) {
      const clip = sources[i % sources.length];
      const pause = 0.4 + ((i * 7) % 7) / 10;
      pieces.push(clip);
      seconds +=
        Number(
          execFileSync('ffprobe', [
            '-v',
            'error',
            '-show_entries',
            'format=duration',
            '-of',
            'csv=p=0',
            clip,
          ]),
        ) + pause;
      pieces.push(pause);
    }
    const wavs = pieces.map((piece, i) => {
      const out = join(split, `${String(i).padStart(4, '0')}.wav`);
      if (typeof piece === 'number')
        ffmpeg(['-f', 'lavfi', '-i', `anullsrc=r=44100:cl=mono:d=${piece}`, out]);
      else ffmpeg(['-i', piece, '-ar', '44100', '-ac', '1', out]);
      return out;
    });
    writeFileSync(join(split, 'list.txt'), wavs.map((wav) => `file '${wav}'`).join('\n'));
    const recording = join(work, 'recording.mp3');
    ffmpeg([
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      join(split, 'list.txt'),
      '-c:a',
      'libmp3lame',
      '-q:a',
      '4',
      recording,
    ]);
    const { splitRecording } = await import(
      join(root, 'dist/app/server/publishing/imports/silence-split.js')
    );
    const out = join(work, 'cut');
    mkdirSync(out);
    const phrases = pieces.filter((piece) => typeof piece !== 'number').length;
    const started = performance.now();
    const result = await splitRecording(recording, phrases, out);
    const splitMs = performance.now() - started;

    return {
      phrases: PHRASES,
      zipBytes,
      previewMs: preview.ms,
      previewGrowth: preview.growth,
      commitMs: commit.ms,
      commitGrowth: commit.growth,
      added: commit.result,
      recordingSeconds: seconds,
      splitPhrases: phrases,
      splitClips: result.clips.length,
      splitMs,
      detectMs: result.timings.detectMs,
      cutMs: result.timings.cutMs,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
