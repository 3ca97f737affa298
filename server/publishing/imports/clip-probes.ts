import { PHRASE_UPLOADS } from '../../platform/common/body-limits';
import { MediaRejectedError } from '../../platform/media/media.service';
import type { AudioType } from '../../platform/media/sniff';
import type { ChapterRow } from './manifests';

/** Checks one staged file as audio by its content; a MediaRejectedError when it is not usable. */
export type Probe = (file: string) => Promise<{ type: AudioType; durationMs: number | null }>;

/** Clips probed at once: enough to keep the disk busy, few enough to keep memory flat. */
const PROBES_AT_ONCE = 8;

/**
 * Each row's clip checked by content, filling in its duration and type, a few at a time; a clip that is
 * not usable is its row's problem, not the import's. `sizes` (by staged file), where given, refuses a
 * clip larger than the most for a clip before reading it: a book zip's entries are measured only here.
 */
export async function probeClips(rows: ChapterRow[], probe: Probe, sizes?: Map<string, number>) {
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++];
      if (!row.file) continue;
      if ((sizes?.get(row.file) ?? 0) > PHRASE_UPLOADS.line_audio) {
        row.error ??= `The clip "${row.clip}" is larger than 10 MB, the most for a clip.`;
        continue;
      }
      try {
        const { durationMs, type } = await probe(row.file);
        row.duration_ms = durationMs;
        row.type = type;
      } catch (error) {
        if (!(error instanceof MediaRejectedError)) throw error;
        row.error ??= `The clip "${row.clip}" is not usable: ${error.message}`;
      }
    }
  };
  await Promise.all(Array.from({ length: PROBES_AT_ONCE }, worker));
}
