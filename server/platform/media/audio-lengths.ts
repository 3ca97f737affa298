/**
 * How the media takes in an audio file's length: as ffmpeg decodes it, the one measure every answer and
 * export uses (docs/formats.md "Exact lengths"). The measuring lives with the formats
 * (server/publishing/formats/audio-measures.ts provides it), which the media may not import; the media names what it
 * needs here, and the formats module provides it under AUDIO_LENGTHS.
 */
export interface AudioLengths {
  /**
   * A local file's decoded length in microseconds, in the process's ffmpeg slots; null when it cannot be
   * measured now (no ffmpeg, or ffmpeg out of time): the caller keeps the container's figure and the
   * background measuring replaces it. A file ffmpeg cannot decode is refused (MediaRejectedError).
   */
  measureFile(file: string): Promise<number | null>;
  /** Keeps a just-stored media key's decoded length, so exports never measure it again. */
  keepMedia(key: string, decodedUs: number): Promise<void>;
}

export const AUDIO_LENGTHS = Symbol('AUDIO_LENGTHS');

/** A clip's length in the rows and the API: whole milliseconds of its decoded microseconds. */
export const msOfUs = (us: number): number => Math.round(us / 1000);
