import { Pcm16Reader } from './pcm16';
/**
 * What the aligner compares: MFCCs of 16 kHz mono audio, one frame every 20 ms, computed as the samples
 * stream in (an hour of PCM is 115 MB; the frames of it are 13 MB). Our own small implementation rather
 * than a library's: one fixed configuration, no per-frame allocation, and the same code for the
 * synthesised text and the recording, so that their frames compare (docs/alignment.md).
 */

export const SAMPLE_RATE = 16_000;
/** One frame every 20 ms: fine enough to find a pause, whose middle is then found on 10 ms energies. */
export const HOP_SAMPLES = 320;
export const FRAME_MS = (HOP_SAMPLES / SAMPLE_RATE) * 1000;
const WINDOW_SAMPLES = 512; // 32 ms
const FFT_SIZE = 512;
const MEL_BANDS = 26;
/** c1…c12: c0 (loudness) differs between any two voices and rooms, so it is left out. */
export const COEFFS = 12;
const MIN_HZ = 100;
const MAX_HZ = 7_000;
/** Energies are kept every 10 ms for finding pauses. */
export const ENERGY_SAMPLES = 160;
export const ENERGY_MS = 10;

function melOf(hz: number): number {
  return 2595 * Math.log10(1 + hz / 700);
}

function hzOf(mel: number): number {
  return 700 * (10 ** (mel / 2595) - 1);
}

/** Triangular filters over the power spectrum's bins, as [firstBin, weights] per band. */
function melFilters(): Array<[number, Float64Array]> {
  const low = melOf(MIN_HZ);
  const high = melOf(MAX_HZ);
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, i) =>
    Math.floor(((FFT_SIZE + 1) * hzOf(low + ((high - low) * i) / (MEL_BANDS + 1))) / SAMPLE_RATE),
  );
  return Array.from({ length: MEL_BANDS }, (_, b) => {
    const [left, centre, right] = [edges[b], edges[b + 1], edges[b + 2]];
    const weights = new Float64Array(right - left + 1);
    for (let k = left; k <= right; k++)
      weights[k - left] =
        k <= centre ? (k - left) / Math.max(1, centre - left) : (right - k) / Math.max(1, right - centre);
    return [left, weights];
  });
}

const COS = Float64Array.from({ length: FFT_SIZE / 2 }, (_, k) => Math.cos((-2 * Math.PI * k) / FFT_SIZE));
const SIN = Float64Array.from({ length: FFT_SIZE / 2 }, (_, k) => Math.sin((-2 * Math.PI * k) / FFT_SIZE));

/** An in-place radix-2 FFT of FFT_SIZE points. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = FFT_SIZE;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const r = re[i];
      re[i] = re[j];
      re[j] = r;
      const m = im[i];
      im[i] = im[j];
      im[j] = m;
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const stride = n / size;
    const half = size / 2;
    for (let start = 0; start < n; start += size)
      for (let k = 0; k < half; k++) {
        const c = COS[k * stride];
        const s = SIN[k * stride];
        const a = start + k;
        const b = a + half;
        const tr = re[b] * c - im[b] * s;
        const ti = re[b] * s + im[b] * c;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
      }
  }
}

/**
 * Turns a stream of 16-bit little-endian samples into MFCC frames (COEFFS per frame) and 10 ms
 * energies (dB full scale). Feed it chunks of any size; `finish()` returns what it computed.
 */
export class FeatureStream {
  private readonly filters = melFilters();
  private readonly window = Float64Array.from(
    { length: WINDOW_SAMPLES },
    (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (WINDOW_SAMPLES - 1)),
  );
  private readonly dct = Array.from({ length: COEFFS }, (_, c) =>
    Float64Array.from({ length: MEL_BANDS }, (_, b) => Math.cos((Math.PI * (c + 1) * (b + 0.5)) / MEL_BANDS)),
  );
  /** The last WINDOW_SAMPLES samples, as a ring. */
  private readonly ring = new Float64Array(WINDOW_SAMPLES);
  private readonly re = new Float64Array(FFT_SIZE);
  private readonly im = new Float64Array(FFT_SIZE);
  private readonly mel = new Float64Array(MEL_BANDS);
  private samples = 0;
  private readonly pcm = new Pcm16Reader((value) => this.push(value));
  private energySum = 0;
  private frames: Float32Array = new Float32Array(COEFFS * 4096);
  private frameCount = 0;
  private energies: Float32Array = new Float32Array(8192);
  private energyCount = 0;

  get seconds(): number {
    return this.samples / SAMPLE_RATE;
  }

  write(chunk: Buffer): void {
    this.pcm.write(chunk);
  }

  /** Pushes `ms` of silence: the synthesised text's gap between two phrases. */
  silence(ms: number): void {
    for (let i = Math.round((ms * SAMPLE_RATE) / 1000); i > 0; i--) this.push(0);
  }

  finish(): { frames: Float32Array; frameCount: number; energies: Float32Array; energyCount: number } {
    return {
      frames: this.frames.subarray(0, this.frameCount * COEFFS),
      frameCount: this.frameCount,
      energies: this.energies.subarray(0, this.energyCount),
      energyCount: this.energyCount,
    };
  }

  /** One 16-bit sample. */
  push(value: number): void {
    const x = value / 32768;
    this.ring[this.samples % WINDOW_SAMPLES] = x;
    this.samples++;
    this.energySum += x * x;
    if (this.samples % ENERGY_SAMPLES === 0) {
      this.pushEnergy(10 * Math.log10(this.energySum / ENERGY_SAMPLES + 1e-10));
      this.energySum = 0;
    }
    if (this.samples % HOP_SAMPLES === 0) this.frame();
  }

  private pushEnergy(db: number): void {
    if (this.energyCount === this.energies.length) {
      const grown = new Float32Array(this.energies.length * 2);
      grown.set(this.energies);
      this.energies = grown;
    }
    this.energies[this.energyCount++] = db;
  }

  /** One frame, its window ending with the hop just ended (the window reaches back before the stream's start as zeros). */
  private frame(): void {
    const { re, im, ring, window } = this;
    const start = this.samples; // the ring's oldest sample sits at samples % WINDOW_SAMPLES
    for (let i = 0; i < WINDOW_SAMPLES; i++) {
      const at = start + i;
      re[i] = at - WINDOW_SAMPLES < 0 ? 0 : ring[at % WINDOW_SAMPLES] * window[i];
      im[i] = 0;
    }
    re.fill(0, WINDOW_SAMPLES);
    fft(re, im);
    for (let b = 0; b < MEL_BANDS; b++) {
      const [first, weights] = this.filters[b];
      let sum = 0;
      for (let k = 0; k < weights.length; k++) {
        const bin = first + k;
        sum += weights[k] * (re[bin] * re[bin] + im[bin] * im[bin]);
      }
      this.mel[b] = Math.log(sum + 1e-8);
    }
    if ((this.frameCount + 1) * COEFFS > this.frames.length) {
      const grown = new Float32Array(this.frames.length * 2);
      grown.set(this.frames);
      this.frames = grown;
    }
    const out = this.frameCount * COEFFS;
    for (let c = 0; c < COEFFS; c++) {
      let sum = 0;
      const basis = this.dct[c];
      for (let b = 0; b < MEL_BANDS; b++) sum += basis[b] * this.mel[b];
      this.frames[out + c] = sum;
    }
    this.frameCount++;
  }
}

/**
 * Cepstral mean and variance normalisation, in place: each coefficient made zero-mean and unit-variance
 * over the stretch given. What is left is the shape of the speech, not the voice or the microphone.
 */
export function normalise(frames: Float32Array, from: number, to: number): void {
  for (let c = 0; c < COEFFS; c++) {
    let sum = 0;
    let squares = 0;
    for (let f = from; f < to; f++) {
      const v = frames[f * COEFFS + c];
      sum += v;
      squares += v * v;
    }
    const count = Math.max(1, to - from);
    const mean = sum / count;
    const sd = Math.sqrt(Math.max(1e-9, squares / count - mean * mean));
    for (let f = 0; f < frames.length / COEFFS; f++)
      frames[f * COEFFS + c] = (frames[f * COEFFS + c] - mean) / sd;
  }
}
