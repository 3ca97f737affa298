// Aligning a narrated recording to its text (issue 31, "Measured"; docs/alignment.md): an hour-long
// chapter of about 800 sentences read by Festival (not the aligner's reference voice), with a spoken
// announcement before the text, breaths at commas, background noise and its tempo changed, is imported
// through the built server's API as a job, polled until ready, checked against where its sentence gaps
// truly lie, and committed. The server's RSS and its children's (eSpeak NG, ffmpeg) are sampled meanwhile.
// eSpeak NG speaking the text alone, and ffmpeg decoding the recording alone, are timed in the same run,
// just before and just after: the speed is read as ratios to them, as the machine is shared.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quiet, sampled } from './formats-probes.mjs';
import { adminHeaders, commitImport, newBookChapter } from './import-timing.mjs';

const root = new URL('../..', import.meta.url).pathname;
const dist = (path) => join(root, 'dist/app/server', path);
/** The recording: the English sample sentences going round, a spoken announcement first, 3% slower. */
export const OPTIONS = {
  sentences: Number(process.env.BENCH_ALIGN_SENTENCES ?? 800),
  intro: 'speech',
  tempo: 0.97,
  seed: 31,
  noiseDb: 45,
};
/** The server's and its children's RSS are read this often. */
export const SAMPLE_MS = 100;
export const POLL_MS = 500;
/** A cut is right inside its true gap, this much either side. */
export const SLACK_MS = 50;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * The recording and its truth, made once and kept under the temp folder for later runs, keyed by the
 * options and the generator's built code (a changed generator makes a new one).
 */
async function sampleRecording() {
  const generator = dist('publishing/alignment/sample-recordings.js');
  const hash = createHash('sha256').update(readFileSync(generator)).digest('hex').slice(0, 12);
  const { sentences, intro, tempo, seed, noiseDb } = OPTIONS;
  const key = `en-${sentences}-${intro}-${tempo}-${seed}-${noiseDb}-${hash}`;
  const parent = join(tmpdir(), 'lingonovel-bench-alignment');
  const dir = join(parent, key);
  const path = join(dir, 'recording.mp3');
  if (existsSync(join(dir, 'truth.json')))
    return { ...JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')), path, cached: true };
  mkdirSync(parent, { recursive: true });
  const work = mkdtempSync(join(parent, 'making-'));
  try {
    const { ENGLISH, makeSampleRecording } = await import(generator);
    const started = performance.now();
    const made = await makeSampleRecording(ENGLISH, OPTIONS, work);
    const { file, ...truth } = { ...made, generatedMs: performance.now() - started };
    renameSync(file, join(work, 'recording.mp3'));
    writeFileSync(join(work, 'truth.json'), JSON.stringify(truth));
    renameSync(work, dir);
    return { ...truth, path, cached: false };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `command args…` with its output thrown away: its wall time in ms. */
function timed(command, args) {
  const devNull = openSync('/dev/null', 'w');
  try {
    const started = performance.now();
    execFileSync(command, args, { stdio: ['ignore', devNull, 'inherit'], maxBuffer: 0 });
    return performance.now() - started;
  } finally {
    closeSync(devNull);
  }
}

/** eSpeak NG alone speaking the text (plain, one sentence a line), and ffmpeg alone decoding the recording as the aligner asks it to (16 kHz mono PCM). */
async function alone(sample, textFile) {
  const { referenceVoice } = await import(dist('publishing/alignment/voices.js'));
  const { decodeToPipeArgs } = await import(dist('publishing/imports/ffmpeg.js'));
  const voice = await referenceVoice('en');
  return {
    voice,
    espeakMs: timed('espeak-ng', ['-v', voice, '--stdout', '-f', textFile]),
    decodeMs: timed('ffmpeg', decodeToPipeArgs(sample.path, 16_000)),
  };
}

/** The aligner's speaking stage alone (eSpeak NG through ffmpeg into MFCCs, server/publishing/alignment/synthesis.ts), in this process. */
async function speakingAlone(sample, voice) {
  const { speakPhrases } = await import(dist('publishing/alignment/synthesis.js'));
  const started = performance.now();
  const spoken = await speakPhrases(sample.phrases, voice);
  if (spoken.boundaries.length !== sample.phrases.length - 1)
    throw new Error(`eSpeak's separators: ${spoken.boundaries.length} for ${sample.phrases.length} phrases`);
  return performance.now() - started;
}

/**
 * The commit's cutting alone, in this process: one ffmpeg run re-encoding the recording into the rows'
 * clips at the preview's boundaries (server/publishing/imports/silence-split.ts), and before the text and after it,
 * as the commit asks it (server/publishing/imports/chapter-import.service.ts).
 */
async function cuttingAlone(sample, recording, dir) {
  const { cutSegments } = await import(dist('publishing/imports/silence-split.js'));
  const lead = recording.start_ms ? [recording.start_ms] : [];
  const tail = recording.end_ms < recording.duration_ms ? [recording.end_ms] : [];
  const started = performance.now();
  const clips = await cutSegments(sample.path, [...lead, ...recording.cuts, ...tail], dir);
  return { ms: performance.now() - started, clips: clips.length };
}

/** Polls the import until it is no longer aligning: the answer, and each progress seen with its time. */
async function untilReady(base, auth, id, started) {
  const progress = [];
  for (;;) {
    const res = await fetch(`${base}/api/v1/admin/import/${id}`, { headers: auth });
    const body = await res.json();
    if (res.status !== 202) {
      if (res.status !== 200 || body.data.status !== 'ready')
        throw new Error(`the import answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
      return { data: body.data, ms: performance.now() - started, progress };
    }
    const { percent, eta_s } = body.data.progress;
    if (progress.at(-1)?.percent !== percent)
      progress.push({ atMs: performance.now() - started, percent, etaS: eta_s });
    await sleep(POLL_MS);
  }
}

export async function measureAlignment(base, storage, pid) {
  console.log(`  the recording (${OPTIONS.sentences} sentences, Festival)…`);
  const sample = await sampleRecording();
  const recording = readFileSync(sample.path);
  const work = mkdtempSync(join(tmpdir(), 'lingonovel-bench-align-'));
  try {
    const textFile = join(work, 'chapter.txt');
    writeFileSync(textFile, sample.phrases.join('\n') + '\n');
    const auth = await adminHeaders(base, storage);
    const { chapterId } = await newBookChapter(base, auth, {
      fields: {
        title: 'Alignment benchmark',
        minutes: String(Math.round(sample.durationMs / 60_000)),
        description: 'An hour of Festival reading, aligned to its text.',
        language: 'en',
        cefr: 'B1',
      },
      chapter: 'An hour of reading',
    });

    // The server's own background work first (at boot it runs ffmpeg and eSpeak NG to find them).
    console.log('  waiting for the server to be quiet…');
    const quietBefore = await quiet(pid);
    console.log('  eSpeak NG and ffmpeg alone…');
    const before = await alone(sample, textFile);

    console.log(`  aligning ${(sample.durationMs / 60_000).toFixed(1)} minutes through the API…`);
    let post;
    const aligned = await sampled(
      pid,
      async () => {
        const form = new FormData();
        form.set('text', new Blob([readFileSync(textFile)]), 'chapter.txt');
        form.set('recording', new Blob([recording], { type: 'audio/mpeg' }), 'chapter.mp3');
        const started = performance.now();
        const res = await fetch(`${base}/api/v1/admin/chapter/${chapterId}/import`, {
          method: 'POST',
          headers: auth,
          body: form,
        });
        const body = await res.json();
        post = { status: res.status, ms: performance.now() - started, data: body.data };
        if (res.status === 200) return { data: body.data, ms: post.ms, progress: [] };
        if (res.status !== 202 || body.data.status !== 'aligning')
          throw new Error(`the import answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
        return untilReady(base, auth, body.data.import_id, started);
      },
      SAMPLE_MS,
    );
    const ready = aligned.result.data;
    if (ready.errors.length) throw new Error(`the preview has problems: ${ready.errors.join('; ')}`);
    const { cuts, start_ms: startMs, end_ms: endMs, unsure } = ready.recording;
    const right = cuts.filter(
      (cut, n) => cut >= sample.gaps[n].startMs - SLACK_MS && cut <= sample.gaps[n].endMs + SLACK_MS,
    ).length;

    console.log('  committing…');
    const committed = await sampled(
      pid,
      async () => {
        const started = performance.now();
        const added = await commitImport(base, auth, ready);
        return { added, ms: performance.now() - started };
      },
      SAMPLE_MS,
    );
    const listed = await fetch(`${base}/api/v1/admin/phrase?chapter_id=${chapterId}`, { headers: auth });
    const phrases = (await listed.json()).data.phrases;

    // The new clips' lengths are measured in the background a few seconds after the commit
    // (docs/formats.md, "Exact lengths"): timed, and waited for before the references.
    console.log("  the server's background measuring of the new clips…");
    const measuring = await quiet(pid);
    console.log("  the commit's cutting, eSpeak NG and ffmpeg alone…");
    const cutting = await cuttingAlone(sample, ready.recording, join(work, 'clips'));
    const after = await alone(sample, textFile);
    const speakMs = await speakingAlone(sample, before.voice);
    return {
      options: OPTIONS,
      sample: {
        durationMs: sample.durationMs,
        phrases: sample.phrases.length,
        bytes: recording.length,
        textStartMs: sample.textStartMs,
        textEndMs: sample.textEndMs,
        generatedMs: sample.generatedMs,
        cached: sample.cached,
      },
      post: {
        status: post.status,
        ms: post.ms,
        percent: post.data?.progress?.percent,
        etaS: post.data?.progress?.eta_s,
      },
      alignMs: aligned.result.ms,
      progress: aligned.result.progress,
      memory: {
        before: aligned.before,
        totalBefore: aligned.totalBefore,
        totalGrowth: aligned.totalGrowth,
        serverGrowth: aligned.growth,
        childPeak: aligned.childPeak,
        childPeaks: aligned.childPeaks,
        peakAtMs: aligned.peakAtMs,
        samples: aligned.samples,
      },
      accuracy: { right, cuts: cuts.length, startMs, endMs, unsure, rows: ready.rows.length },
      commit: {
        ms: committed.result.ms,
        added: committed.result.added,
        phrases: phrases.length,
        serverGrowth: committed.growth,
        totalGrowth: committed.totalGrowth,
        childPeaks: committed.childPeaks,
      },
      background: { before: quietBefore, afterCommit: measuring },
      reference: {
        voice: before.voice,
        espeakMs: [before.espeakMs, after.espeakMs],
        decodeMs: [before.decodeMs, after.decodeMs],
        speakMs,
        cutMs: cutting.ms,
        clips: cutting.clips,
      },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
