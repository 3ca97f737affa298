import { ServiceUnavailableException } from '@nestjs/common';
import { ValidationFailed } from '../../platform/common/api-error';
import { ffmpegAvailable, FFMPEG_MISSING_MESSAGE } from './ffmpeg';
import type { RecordingManifest } from './manifests';
import {
  MIN_SEGMENT_MS,
  previewSplit,
  segmentsFromCuts,
  validateBoundaries,
  type Span,
} from './silence-split';
import type { ParsedText, TextRow } from './text-formats';

/** ffmpeg or a 503 that says how to install it; the text-plus-clips mode works without it. */
export async function requireFfmpeg(): Promise<void> {
  if (!(await ffmpegAvailable())) throw new ServiceUnavailableException(FFMPEG_MISSING_MESSAGE);
}

/**
 * The phrases of a recording's text: one a block (blank lines between, glossary lines under the phrase),
 * or, in a file without blank lines, one a line. A TSV or CSV is read as usual; its audio column is unused.
 */
export function recordingRows(text: ParsedText, raw: string): TextRow[] {
  const blankLines = /\n\s*\n/.test(raw.replace(/\r\n?/g, '\n').trim());
  if (text.format !== 'blocks' || blankLines || text.rows.length !== 1) return text.rows;
  return raw
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((phrase, i) => ({ n: i + 1, phrase, dictionary: '', audio: null, translations: {} }));
}

/**
 * Where to cut: the middles of the N−1 longest pauses (silence-split.ts). With too few pauses, the longest
 * segments are halved until there are enough, and the notice says so: the administrator moves the
 * boundaries in the preview.
 */
export async function findCuts(file: string, phraseCount: number) {
  const split = await previewSplit(file, phraseCount);
  const cuts = [...split.cutsMs];
  while (cuts.length < phraseCount - 1) {
    const segments = segmentsFromCuts(cuts, split.durationMs);
    const longest = segments.reduce((a, b) => (b.endMs - b.startMs > a.endMs - a.startMs ? b : a));
    cuts.push(Math.round((longest.startMs + longest.endMs) / 2));
    cuts.sort((a, b) => a - b);
  }
  const notice = split.error
    ? `${split.error}: the other boundaries are guesses. Listen to each segment and move its boundaries.`
    : null;
  return { durationMs: split.durationMs, cuts, notice };
}

/**
 * Boundaries an administrator moved, checked against the recording and, aligned, against where its text
 * starts and ends (`recording`'s start_ms and end_ms, as they will be); a 422 names each bad one.
 */
export function checkedCuts(
  cuts: unknown,
  recording: RecordingManifest,
  phraseCount: number,
  /** The edge the client moved, named in a refusal that the text ends before it starts. */
  moved: 'start_ms' | 'end_ms' = 'start_ms',
): number[] {
  if (!Array.isArray(cuts))
    throw ValidationFailed.field('cuts', 'The boundaries must be a list of times in ms.');
  const startMs = recording.start_ms ?? 0;
  const endMs = recording.end_ms ?? recording.duration_ms;
  if (endMs > recording.duration_ms)
    throw ValidationFailed.field(
      'end_ms',
      `The text cannot end (${endMs} ms) after the recording does (${recording.duration_ms} ms).`,
    );
  if (startMs >= endMs)
    throw ValidationFailed.field(moved, `The text must start (${startMs} ms) before it ends (${endMs} ms).`);
  const check = validateBoundaries(cuts, recording.duration_ms, phraseCount, startMs, endMs);
  if (!check.ok) throw ValidationFailed.field('cuts', check.errors.map((e) => `${e.message}.`).join(' '));
  return check.cutsMs;
}

/**
 * Where the text starts and ends, as the commit cuts them: within 50 ms of the recording's own start or
 * end, an edge is the recording's (no sliver under 50 ms is cut off), and never past it.
 */
export function textEdges(
  startMs: number | undefined,
  endMs: number | undefined,
  durationMs: number,
): { start_ms?: number; end_ms?: number } {
  const edges: { start_ms?: number; end_ms?: number } = {};
  if (startMs !== undefined) edges.start_ms = startMs < MIN_SEGMENT_MS ? 0 : startMs;
  if (endMs !== undefined)
    edges.end_ms = durationMs - endMs < MIN_SEGMENT_MS ? durationMs : Math.min(endMs, durationMs);
  return edges;
}

/** The rows' segments: from where the text starts (0 unless aligned) to where it ends. */
export function segments(recording: RecordingManifest): Span[] {
  const spans = segmentsFromCuts(recording.cuts, recording.duration_ms);
  if (spans.length && recording.start_ms !== undefined) spans[0].startMs = recording.start_ms;
  if (spans.length && recording.end_ms !== undefined) spans[spans.length - 1].endMs = recording.end_ms;
  return spans;
}
