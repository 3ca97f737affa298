import { decodeToPipeArgs, runFfmpeg } from '../imports/ffmpeg';
import { bandAround, fullBand, NoPathError, pool, warp, type Frames, type Path } from './dtw';
import { COEFFS, FeatureStream, FRAME_MS, normalise, SAMPLE_RATE } from './features';
import { findPauses, snapToPause, type Pause } from './pauses';
import { speakPhrases } from './synthesis';

/**
 * Aligns a narrated recording to its text, phrase by phrase, the aeneas way (docs/alignment.md): the text
 * spoken by eSpeak NG, both signals as MFCCs, dynamic time warping from coarse to fine with the
 * recording's start and end left open (an intro, music, an outro are not in the text), and each boundary
 * moved to the recording's nearest pause.
 */

export interface Alignment {
  /** Where the text begins and ends in the recording. */
  startMs: number;
  endMs: number;
  /** N − 1 cuts between the N phrases. */
  cutsMs: number[];
  /** Per phrase, 0 to 1: how sure the aligner is of its start and end. */
  confidence: number[];
}

export interface AlignProgress {
  /** 0 to 100. */
  percent: number;
  stage: 'speaking' | 'listening' | 'matching';
}

/** Coarse, middle and fine levels: frames pooled 32 and 8 to one (0.64 s, 0.16 s), then 20 ms frames. */
const COARSE = 32;
const MIDDLE = 8;
/** How far each finer pass may stray from the coarser path, in coarser cells. */
const RADIUS = [6, 8];
/** The share of the work each stage takes, for the progress bar. */
const SHARE = { speaking: 15, listening: 45, matching: 40 };

export async function alignRecording(
  file: string,
  phrases: readonly string[],
  voice: string,
  durationMs: number,
  onProgress: (progress: AlignProgress) => void = () => undefined,
  signal?: AbortSignal,
): Promise<Alignment> {
  // Far too short already by the letters: refused before eSpeak reads the text aloud (2,000 phrases take
  // it seconds of work), with the answer the measure below would give.
  if (durationMs * 2 < minimumSpokenMs(phrases)) throw tooShort(durationMs, phrases.length);
  onProgress({ percent: 0, stage: 'speaking' });
  const spoken = await speakPhrases(phrases, voice, signal);
  // The warping lets a narrator take at most three times, and at least half, the reference voice's time.
  if ((durationMs / FRAME_MS) * 2 < spoken.frameCount) throw tooShort(durationMs, phrases.length);
  onProgress({ percent: SHARE.speaking, stage: 'listening' });

  const heard = new FeatureStream();
  let reported = 0;
  await runFfmpeg(decodeToPipeArgs(file, SAMPLE_RATE), {
    timeoutMs: 30 * 60_000,
    signal,
    onStdout: (chunk) => {
      heard.write(chunk);
      const done = Math.min(1, (heard.seconds * 1000) / Math.max(1, durationMs));
      if (done - reported >= 0.05) {
        reported = done;
        onProgress({ percent: Math.round(SHARE.speaking + SHARE.listening * done), stage: 'listening' });
      }
    },
  });
  const recording = heard.finish();
  const text: Frames = { data: spoken.frames, count: spoken.frameCount };
  const audio: Frames = { data: recording.frames, count: recording.frameCount };
  if (text.count < 2 || audio.count < 2)
    throw new AlignmentError('The recording or the text is too short to align.');
  if (loudest(recording.energies, recording.energyCount) < SILENT_DB)
    throw new AlignmentError('The recording is silent: check that this is the right file.');
  normalise(text.data, 0, text.count);
  normalise(audio.data, 0, audio.count);
  onProgress({ percent: SHARE.speaking + SHARE.listening, stage: 'matching' });

  let path: Path;
  try {
    path = await coarseToFine(
      text,
      audio,
      (share) =>
        onProgress({
          percent: Math.round(SHARE.speaking + SHARE.listening + SHARE.matching * share),
          stage: 'matching',
        }),
      signal,
    );
  } catch (error) {
    if (error instanceof NoPathError) throw tooShort(durationMs, phrases.length);
    throw error;
  }
  const pauses = findPauses(recording.energies, recording.energyCount);
  return place(path, spoken.boundaries, text, audio, pauses);
}

/**
 * Less than eSpeak NG ever takes to speak these phrases: at its default 175 words a minute it says about
 * 15 letters a second; at 30 a second this bound stays under its time for any text (marks and digits
 * only add to it).
 */
function minimumSpokenMs(phrases: readonly string[]): number {
  let letters = 0;
  for (const phrase of phrases) letters += phrase.match(/\p{L}/gu)?.length ?? 0;
  return (letters / 30) * 1000;
}

/** What the administrator is told: the recording and the text cannot be aligned, and why. */
export class AlignmentError extends Error {}

function tooShort(durationMs: number, phrases: number): AlignmentError {
  return new AlignmentError(
    `The recording (${(durationMs / 1000).toFixed(1)} s) is too short for ${phrases} phrases: check that this is the right recording and text.`,
  );
}

/** A recording whose loudest 10 ms stays below this (dBFS) has nothing to align. */
const SILENT_DB = -50;

function loudest(energies: Float32Array, count: number): number {
  let max = -Infinity;
  for (let i = 0; i < count; i++) if (energies[i] > max) max = energies[i];
  return max;
}

/**
 * The coarse pass keeps a byte a cell of its whole matrix: 31 MB for an hour's text against an hour's
 * recording. Past this, the recording is far longer than its text (a whole book for one chapter's text).
 */
const MAX_COARSE_CELLS = 120_000_000;

function farLonger(textFrames: number, audioFrames: number): AlignmentError {
  const minutes = (frames: number) => Math.round((frames * FRAME_MS) / 60_000);
  return new AlignmentError(
    `The recording (${minutes(audioFrames)} min) is far longer than its text (about ${minutes(textFrames)} min spoken): import the recording of this chapter only, or cut it to the chapter first.`,
  );
}

async function coarseToFine(
  text: Frames,
  audio: Frames,
  progress: (share: number) => void,
  signal?: AbortSignal,
): Promise<Path> {
  const coarseText = pool(text, COARSE);
  const coarseAudio = pool(audio, COARSE);
  if (coarseText.count * coarseAudio.count > MAX_COARSE_CELLS) throw farLonger(text.count, audio.count);
  let path = await warp(coarseText, coarseAudio, fullBand(coarseText.count, coarseAudio.count), signal);
  progress(0.2);
  const middleText = pool(text, MIDDLE);
  const middleAudio = pool(audio, MIDDLE);
  path = await warp(
    middleText,
    middleAudio,
    bandAround(path, COARSE / MIDDLE, RADIUS[0], middleText.count, middleAudio.count),
    signal,
  );
  progress(0.4);
  path = await warp(text, audio, bandAround(path, MIDDLE, RADIUS[1], text.count, audio.count), signal);
  progress(1);
  return path;
}

/** The recording frames the path matched to each text frame: the first and the last. */
function matchedColumns(path: Path, rows: number): { first: Int32Array; last: Int32Array } {
  const first = new Int32Array(rows).fill(-1);
  const last = new Int32Array(rows).fill(-1);
  for (let k = 0; k < path.rows.length; k++) {
    const r = path.rows[k];
    if (first[r] < 0) first[r] = path.cols[k];
    last[r] = path.cols[k];
  }
  return { first, last };
}

/** The distance of two frames. */
function distance(a: Frames, i: number, b: Frames, j: number): number {
  let d = 0;
  for (let k = 0; k < COEFFS; k++) {
    const diff = a.data[i * COEFFS + k] - b.data[j * COEFFS + k];
    d += diff * diff;
  }
  return Math.sqrt(d);
}

/**
 * How well each phrase matched, 0 to 1: its path's mean distance against what unrelated frames give (the
 * same text frames against recording frames far away in time). One pass over the path for all phrases;
 * `ratio` is the same measure over the whole path.
 */
function matchQualities(
  path: Path,
  text: Frames,
  audio: Frames,
  rowEdges: readonly number[],
): { qualities: number[]; ratio: number } {
  const phrases = rowEdges.length - 1;
  const matched = new Float64Array(phrases);
  const unrelated = new Float64Array(phrases);
  const shift = Math.floor(audio.count / 2);
  let phrase = 0;
  for (let k = 0; k < path.rows.length; k++) {
    const r = path.rows[k];
    while (phrase < phrases - 1 && r >= rowEdges[phrase + 1]) phrase++;
    matched[phrase] += distance(text, r, audio, path.cols[k]);
    unrelated[phrase] += distance(text, r, audio, (path.cols[k] + shift + 37 * k) % audio.count);
  }
  const sum = (values: Float64Array) => values.reduce((a, b) => a + b, 0);
  // Matched speech sits near 0.6 of unrelated frames' distance, another text near 0.9 (docs/alignment.md).
  const qualities = Array.from(matched, (total, n) =>
    unrelated[n] ? clamp01((0.92 - total / unrelated[n]) / 0.25) : 0,
  );
  return { qualities, ratio: sum(matched) / Math.max(1e-9, sum(unrelated)) };
}

const clamp01 = (value: number) => Math.max(0, Math.min(1, value));

/** Phrases shorter than this many text frames (100 ms) say nothing of a reading's pace. */
const PACE_MIN_FRAMES = 5;
/** With fewer phrases than this, the chapter's fit is not judged (one odd phrase would sway it). */
const FIT_MIN_PHRASES = 6;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

/** Each phrase's pace: the log of its heard time over the reference voice's (null for a very short one). */
function paces(first: Int32Array, last: Int32Array, rowEdges: readonly number[]): Array<number | null> {
  return rowEdges.slice(0, -1).map((edge, n) => {
    const textFrames = rowEdges[n + 1] - edge;
    if (textFrames <= PACE_MIN_FRAMES) return null;
    const heardFrames = last[rowEdges[n + 1] - 1] - first[edge] + 1;
    return Math.log(Math.max(1, heardFrames) / textFrames);
  });
}

/**
 * How well the recording fits the text as a whole, 0 to 1. Read by a narrator, every phrase takes about
 * the same multiple of the reference voice's time; matched against another text (or another language),
 * the warping gives phrases lengths that vary two to three times as much, and matches frames less well.
 * Measured on six generated recordings (docs/alignment.md, "Another text"): the spread of the phrases'
 * log time ratios 0.04–0.10 for their own text against 0.12–0.35 for another, the path's distance ratio
 * 0.67–0.74 against 0.75–0.80. Their scaled sum: 0.8 at most for their own, 1.76 at least for another.
 */
function chapterFit(logs: number[], ratio: number): number {
  if (logs.length < FIT_MIN_PHRASES) return 1;
  // The median absolute deviation, scaled to a normal spread: a few phrases skipped or added by the
  // narrator (each its own unsure row) do not sway it.
  const spread = 1.4826 * median(logs.map((value) => Math.abs(value - median(logs))));
  const misfit = (spread - 0.1) / 0.1 + (ratio - 0.7) / 0.05;
  // Own texts measured up to 0.8, other texts from 1.76: 0.5 falls halfway.
  return clamp01(1.78 - misfit);
}

/**
 * How plausible one phrase's pace is against the chapter's usual one (the median): a phrase the narrator
 * skipped, or one read with words the text lacks, is squeezed or stretched well past the others, which
 * stay within about 25% of the median.
 */
function paceScore(pace: number | null, median: number): number {
  return pace === null ? 1 : clamp01(1 - (Math.abs(pace - median) - 0.25) / 0.4);
}

function place(
  path: Path,
  boundaries: readonly number[],
  text: Frames,
  audio: Frames,
  pauses: Pause[],
): Alignment {
  const { first, last } = matchedColumns(path, text.count);
  const ms = (frame: number) => frame * FRAME_MS;
  const startMs = Math.max(0, ms(path.cols[0]) - 100);
  const endMs = ms(path.cols[path.cols.length - 1] + 1) + 100;
  const cuts: number[] = [];
  const snapped: number[] = [];
  for (const boundary of boundaries) {
    const mapped = (ms(first[boundary]) + ms(last[boundary] + 1)) / 2;
    const snap = snapToPause(pauses, mapped);
    cuts.push(snap.ms);
    snapped.push(snap.score);
  }
  // Cuts in order, at least 50 ms apart (a snap may reach past its neighbour's).
  for (let n = 1; n < cuts.length; n++) cuts[n] = Math.max(cuts[n], cuts[n - 1] + 50);
  const rowEdges = [0, ...boundaries, text.count];
  const { qualities, ratio } = matchQualities(path, text, audio, rowEdges);
  // A recording of another text makes every phrase doubtful, however well its frames happen to match.
  const pace = paces(first, last, rowEdges);
  const known = pace.filter((value): value is number => value !== null);
  const fit = chapterFit(known, ratio);
  const usual = median(known);
  const confidence = qualities.map((quality, n) => {
    const edges = [n > 0 ? snapped[n - 1] : 1, n < snapped.length ? snapped[n] : 1];
    return Math.round(Math.min(quality, fit, paceScore(pace[n], usual), ...edges) * 100) / 100;
  });
  // The first and last phrases, at the chapter's usual pace: a longer stretch holds the end of an intro
  // (or the start of an outro) that the open-ended warping took for text.
  const expectedMs = (n: number) => (rowEdges[n + 1] - rowEdges[n]) * FRAME_MS * Math.exp(usual);
  const start = cuts.length ? trimStart(pauses, startMs, cuts[0], expectedMs(0)) : startMs;
  const end = cuts.length ? trimEnd(pauses, cuts[cuts.length - 1], endMs, expectedMs(cuts.length)) : endMs;
  return {
    startMs: Math.round(Math.min(start, cuts[0] ?? start)),
    endMs: Math.round(Math.max(end, cuts[cuts.length - 1] ?? end)),
    cutsMs: cuts.map(Math.round),
    confidence,
  };
}

/** A first or last phrase is trimmed only when it lasts this much longer than the usual pace says. */
const OVERLONG = 1.3;
/** A pause that may end the intro (or start the outro): at least this long, longer than most stops. */
const EDGE_PAUSE_MS = 300;

/**
 * Where the text starts, when the first phrase's stretch (`startMs` to `cutMs`) is overlong: at the end of
 * the pause nearest to where the usual pace would start it, and never later than a fifth of the phrase
 * past that (a breath inside the first sentence lies after its true start).
 */
function trimStart(pauses: readonly Pause[], startMs: number, cutMs: number, expectedMs: number): number {
  if (cutMs - startMs <= OVERLONG * expectedMs) return startMs;
  const target = cutMs - expectedMs;
  let best: Pause | null = null;
  for (const pause of pauses) {
    if (pause.endMs <= startMs || pause.endMs > Math.min(target + expectedMs / 5, cutMs)) continue;
    if (pause.endMs - pause.startMs < EDGE_PAUSE_MS) continue;
    if (!best || Math.abs(pause.endMs - target) < Math.abs(best.endMs - target)) best = pause;
  }
  return best ? Math.max(startMs, best.endMs - 100) : startMs;
}

/** The same at the end: the start of the pause nearest to where the usual pace would end the text. */
function trimEnd(pauses: readonly Pause[], cutMs: number, endMs: number, expectedMs: number): number {
  if (endMs - cutMs <= OVERLONG * expectedMs) return endMs;
  const target = cutMs + expectedMs;
  let best: Pause | null = null;
  for (const pause of pauses) {
    if (pause.startMs >= endMs || pause.startMs < Math.max(target - expectedMs / 5, cutMs)) continue;
    if (pause.endMs - pause.startMs < EDGE_PAUSE_MS) continue;
    if (!best || Math.abs(pause.startMs - target) < Math.abs(best.startMs - target)) best = pause;
  }
  return best ? Math.min(endMs, best.startMs + 100) : endMs;
}
