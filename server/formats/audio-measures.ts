import { Injectable } from '@nestjs/common';

/** Which store a measured key lives in (docs/formats.md "Exact lengths"). */
export type MeasuredStore = 'media' | 'derived';

/** A local file's length as decoding it gives (ffmpeg), in microseconds. STUB: helper A builds it. */
export function decodedLengthUs(file: string): Promise<number> {
  throw new Error(`not built yet: ${file}`);
}

/** Lengths of stored files, kept in `audio_measures`; unknown ones measured (two ffmpeg at once). */
@Injectable()
export class AudioMeasures {
  /** key → decoded microseconds, for every key given. FfmpegError('missing') when the server has no ffmpeg. */
  lengths(keys: readonly string[], store: MeasuredStore = 'media'): Promise<Map<string, number>> {
    throw new Error(`not built yet: ${keys.length} ${store}`);
  }
}
