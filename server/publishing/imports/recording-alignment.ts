import { AlignmentError, alignRecording, type AlignProgress } from '../alignment/align';
import type { ChapterManifest, RecordingManifest } from './manifests';
import { textEdges } from './recording-import';
import { MIN_SEGMENT_MS } from './silence-split';

/**
 * A staged recording aligned to its text (server/publishing/alignment/, docs/alignment.md), and what the preview
 * makes of the result: which rows are unsure, and whether the recording looks like another text.
 */

/** An aligned row under this confidence is unsure: the editor takes the author to it (docs/alignment.md). */
export const UNSURE_BELOW = 0.5;

/** Rows the recording is cut into until it is aligned: even spans, each a valid boundary. */
export function evenCuts(durationMs: number, rows: number): number[] {
  return Array.from({ length: Math.max(0, rows - 1) }, (_, n) => Math.round(((n + 1) * durationMs) / rows));
}

/**
 * The manifest once its recording is aligned: the text's start and end, the cuts, each row's confidence.
 * What the aligner refuses by name (a silent recording, far too short for its text) becomes the import's
 * problem, shown in the preview; the commit is refused.
 */
export async function alignStaged(
  manifest: ChapterManifest,
  file: string,
  voice: string,
  onProgress?: (progress: AlignProgress) => void,
  signal?: AbortSignal,
): Promise<ChapterManifest> {
  const recording = manifest.recording!;
  try {
    const aligned = await alignRecording(
      file,
      manifest.rows.map((row) => row.phrase),
      voice,
      recording.duration_ms,
      onProgress,
      signal,
    );
    // The aligner's edges are 100 ms wider than the speech it matched: a recording that stops right after
    // its last word would have its text end past its end.
    const edges = textEdges(aligned.startMs, aligned.endMs, recording.duration_ms);
    const lastCut = edges.end_ms! - MIN_SEGMENT_MS;
    return {
      ...manifest,
      notice: null,
      recording: {
        ...recording,
        cuts: aligned.cutsMs.map((cut) => Math.min(cut, lastCut)),
        ...edges,
        confidence: aligned.confidence,
      },
    };
  } catch (error) {
    if (!(error instanceof AlignmentError)) throw error;
    return { ...manifest, errors: [...manifest.errors, error.message] };
  }
}

/** How many rows are unsure. */
export const unsureCount = (recording: RecordingManifest): number =>
  (recording.confidence ?? []).filter((c) => c < UNSURE_BELOW).length;

/**
 * When most rows are unsure, the recording is likely of another text (or in another language): said in
 * the preview, and the commit wants `confirm` (a few unsure rows never block it).
 */
export function mismatchWarning(recording: RecordingManifest): string | null {
  const rows = recording.confidence?.length ?? 0;
  const unsure = unsureCount(recording);
  if (rows < 2 || unsure * 2 <= rows) return null;
  return `${unsure} of ${rows} rows are unsure: this recording may be of another text, or in another language than the book's. Listen to a few segments; to keep it anyway, commit with "confirm": true.`;
}
