import { decodeToPipeArgs, runFfmpeg, type RunOptions } from './ffmpeg';

/**
 * A recording's waveform for the import preview's editor (docs/import.md, "One recording of the whole
 * chapter"). A browser cannot decode a 500 MB recording whole, so the server decodes it once, as a stream,
 * and keeps only the loudest and quietest sample of each stretch: a few hundred kilobytes at most, whatever
 * the recording's length.
 */

/** ffmpeg decodes to this rate, in one channel: plenty for a picture, a sixth of the work of 44.1 kHz. */
export const PEAKS_SAMPLE_RATE = 8000;
/** At most this many min/max pairs per second of audio (a pair per 10 ms on a short recording). */
export const PEAKS_PER_SECOND = 100;
/** At most this many pairs in all: the answer stays under about 200 KB (100 KB gzipped) for any length. */
export const MAX_PEAK_PAIRS = 20_000;
/** Full scale in the answer: a sample at 0 dBFS is ±127. */
const FULL_SCALE = 127;

/** The peaks as they are stored beside the recording and answered by the API. */
export interface RecordingPeaks {
  /** The recording's decoded length, as the manifest has it. */
  duration_ms: number;
  /** How much of the recording each pair stands for, in ms. */
  ms_per_pair: number;
  /** Whole numbers from −127 to 127 (full scale). */
  bits: 8;
  /** Pairs: the lowest then the highest sample of each stretch, in order. */
  data: number[];
}

/** How many pairs a recording of this length gets. */
export function pairCount(durationMs: number): number {
  const wanted = Math.ceil((Math.max(0, durationMs) / 1000) * PEAKS_PER_SECOND);
  return Math.min(MAX_PEAK_PAIRS, Math.max(1, wanted));
}

/**
 * Reduces a stream of signed 16-bit little-endian mono samples to min/max pairs, as the bytes come: its
 * memory is the pairs, never the audio. A sample split across two chunks is kept for the next one. The
 * stretch each pair covers is fixed from the expected length; should the decoded audio run longer, the
 * last pair takes the rest, so the answer never grows past its bound.
 */
export class PeakReducer {
  private readonly pairs: number;
  private readonly samplesPerPair: number;
  private readonly out: Int8Array;
  private filled = 0;
  private inPair = 0;
  private low = 0;
  private high = 0;
  private carry: number | null = null;

  constructor(readonly durationMs: number) {
    this.pairs = pairCount(durationMs);
    const expected = Math.max(1, Math.ceil((durationMs * PEAKS_SAMPLE_RATE) / 1000));
    this.samplesPerPair = Math.max(1, Math.ceil(expected / this.pairs));
    this.out = new Int8Array(this.pairs * 2);
  }

  push(chunk: Buffer): void {
    let at = 0;
    if (this.carry !== null && chunk.length > 0) {
      this.sample(Buffer.from([this.carry, chunk[0]]).readInt16LE(0));
      this.carry = null;
      at = 1;
    }
    for (; at + 1 < chunk.length; at += 2) this.sample(chunk.readInt16LE(at));
    if (at < chunk.length) this.carry = chunk[at];
  }

  private sample(value: number): void {
    if (this.inPair === 0) {
      this.low = value;
      this.high = value;
    } else {
      if (value < this.low) this.low = value;
      if (value > this.high) this.high = value;
    }
    this.inPair++;
    if (this.inPair === this.samplesPerPair) this.flush();
  }

  private flush(): void {
    if (this.inPair === 0) return;
    // Past the last pair (audio longer than expected), the last pair widens instead.
    const index = Math.min(this.filled, this.pairs - 1);
    const low = scale(this.low);
    const high = scale(this.high);
    if (index < this.filled) {
      this.out[index * 2] = Math.min(this.out[index * 2], low);
      this.out[index * 2 + 1] = Math.max(this.out[index * 2 + 1], high);
    } else {
      this.out[index * 2] = low;
      this.out[index * 2 + 1] = high;
      this.filled++;
    }
    this.inPair = 0;
  }

  result(): RecordingPeaks {
    this.flush();
    return {
      duration_ms: this.durationMs,
      ms_per_pair: (this.samplesPerPair * 1000) / PEAKS_SAMPLE_RATE,
      bits: 8,
      data: Array.from(this.out.subarray(0, Math.max(1, this.filled) * 2)),
    };
  }
}

const scale = (sample: number) =>
  Math.max(-FULL_SCALE, Math.min(FULL_SCALE, Math.round((sample * FULL_SCALE) / 32768)));

/**
 * Decodes the recording's first audio stream to 8 kHz mono PCM through a pipe and reduces it as it
 * streams (PeakReducer). `durationMs` is the decoded length staging measured.
 */
export async function computePeaks(
  file: string,
  durationMs: number,
  options: RunOptions = {},
): Promise<RecordingPeaks> {
  const reducer = new PeakReducer(durationMs);
  await runFfmpeg(decodeToPipeArgs(file, PEAKS_SAMPLE_RATE), {
    timeoutMs: 15 * 60_000,
    ...options,
    onStdout: (chunk) => reducer.push(chunk),
  });
  return reducer.result();
}

/** Stored peaks read back: checked, never cast (a file from an older version, or damaged, is made again). */
export function readPeaks(value: unknown, durationMs: number): RecordingPeaks | null {
  if (typeof value !== 'object' || value === null) return null;
  const peaks = value as Partial<RecordingPeaks>;
  const valid =
    peaks.duration_ms === durationMs &&
    peaks.bits === 8 &&
    typeof peaks.ms_per_pair === 'number' &&
    Number.isFinite(peaks.ms_per_pair) &&
    peaks.ms_per_pair > 0 &&
    Array.isArray(peaks.data) &&
    peaks.data.length >= 2 &&
    peaks.data.length <= MAX_PEAK_PAIRS * 2 &&
    peaks.data.length % 2 === 0 &&
    peaks.data.every((n) => Number.isInteger(n) && n >= -FULL_SCALE && n <= FULL_SCALE);
  return valid
    ? { duration_ms: durationMs, ms_per_pair: peaks.ms_per_pair!, bits: 8, data: peaks.data! }
    : null;
}
