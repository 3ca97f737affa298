import { COEFFS } from './features';

/**
 * Dynamic time warping between the synthesised text (rows) and the recording (columns), never over the
 * full matrix of an hour (180,000 × 180,000 frames): first over frames pooled 32 to one (0.64 s), where
 * the whole matrix is small, then within a band around that path at 8 to one, then at full resolution
 * (docs/alignment.md). Only back-pointers are kept, one byte a cell of the band.
 */

/** Per row, the columns it may match, inclusive. */
export interface Band {
  lo: Int32Array;
  hi: Int32Array;
}

export interface Frames {
  data: Float32Array;
  count: number;
}

/** A path as pairs: rows[k] matched cols[k], from the first row to the last. */
export interface Path {
  rows: Int32Array;
  cols: Int32Array;
}

/** Back-pointers: where a cell's path came from. 1 to 3: from (r − 1, c − that many). */
const START = 0;
const SHARE = 4; // from (r − 2, c − 1), through (r − 1, c)

export function pool(frames: Frames, factor: number): Frames {
  const count = Math.ceil(frames.count / factor);
  const data = new Float32Array(count * COEFFS);
  for (let f = 0; f < frames.count; f++) {
    const to = Math.floor(f / factor) * COEFFS;
    for (let c = 0; c < COEFFS; c++) data[to + c] += frames.data[f * COEFFS + c];
  }
  for (let p = 0; p < count; p++) {
    const n = Math.min(factor, frames.count - p * factor);
    for (let c = 0; c < COEFFS; c++) data[p * COEFFS + c] /= n;
  }
  return { data, count };
}

export function fullBand(rows: number, cols: number): Band {
  return { lo: new Int32Array(rows), hi: new Int32Array(rows).fill(cols - 1) };
}

/** The band at a finer level (`factor` times finer) around a coarse path, `radius` coarse cells wide. */
export function bandAround(path: Path, factor: number, radius: number, rows: number, cols: number): Band {
  const lo = new Int32Array(rows).fill(cols);
  const hi = new Int32Array(rows).fill(-1);
  for (let k = 0; k < path.rows.length; k++) {
    const from = Math.max(0, (path.cols[k] - radius) * factor);
    const to = Math.min(cols - 1, (path.cols[k] + radius + 1) * factor - 1);
    for (let r = path.rows[k] * factor; r < Math.min(rows, (path.rows[k] + 1) * factor); r++) {
      if (from < lo[r]) lo[r] = from;
      if (to > hi[r]) hi[r] = to;
    }
  }
  // Monotone and connected: each row reaches at least where the last one began.
  for (let r = 1; r < rows; r++) {
    if (lo[r] < lo[r - 1]) lo[r] = lo[r - 1];
    if (hi[r] < hi[r - 1]) hi[r] = hi[r - 1];
  }
  return { lo, hi };
}

/** The text cannot fit the recording: more than twice as long, spoken, as the recording is. */
export class NoPathError extends Error {
  constructor() {
    super('no path fits the band');
  }
}

/** One row's cumulative costs, for the columns lo…hi of the band. */
interface Row {
  lo: number;
  hi: number;
  cost: Float64Array;
}

const at = (row: Row, c: number) => (c >= row.lo && c <= row.hi ? row.cost[c - row.lo] : Infinity);

/**
 * The cheapest path through the band, the recording's start and end left open (what comes before and
 * after the text is not in it). Every text frame is matched to one recording frame and its distance
 * counted once, so no path is cheaper for being shorter. From one text frame to the next the recording
 * moves on 1, 2 or 3 frames (a narrator slower than the reference voice, a breath), or two text frames
 * share one (a faster narrator): steps (1,1), (1,2), (1,3) and (2,1), after Müller's subsequence DTW.
 * The text can thus be neither squeezed into a moment of the recording nor spread over 3 times its length.
 */
export async function warp(text: Frames, recording: Frames, band: Band, signal?: AbortSignal): Promise<Path> {
  const rows = text.count;
  const offsets = new Float64Array(rows + 1);
  let maxWidth = 1;
  for (let r = 0; r < rows; r++) {
    const width = Math.max(0, band.hi[r] - band.lo[r] + 1);
    offsets[r + 1] = offsets[r] + width;
    maxWidth = Math.max(maxWidth, width);
  }
  const steps = new Uint8Array(offsets[rows]);
  const empty = (): Row => ({ lo: 0, hi: -1, cost: new Float64Array(maxWidth) });
  let before = empty();
  let previous = empty();
  let current = empty();
  const d = (r: number, c: number) => {
    let sum = 0;
    for (let k = 0, a = r * COEFFS, b = c * COEFFS; k < COEFFS; k++) {
      const diff = text.data[a + k] - recording.data[b + k];
      sum += diff * diff;
    }
    return Math.sqrt(sum);
  };
  let slice = Date.now();
  for (let r = 0; r < rows; r++) {
    // The server goes on answering meanwhile: the event loop gets a turn every ~20 ms of warping.
    if ((r & 63) === 0 && Date.now() - slice > 20) {
      await new Promise((resolve) => setImmediate(resolve));
      // A stopping server (or a discarded import) ends the warping at its next turn.
      signal?.throwIfAborted();
      slice = Date.now();
    }
    current.lo = band.lo[r];
    current.hi = band.hi[r];
    const base = offsets[r];
    for (let c = current.lo; c <= current.hi; c++) {
      let best = r === 0 ? 0 : Infinity;
      let step = START;
      if (r > 0) {
        for (let skip = 1; skip <= 3; skip++) {
          const cost = at(previous, c - skip);
          if (cost < best) {
            best = cost;
            step = skip; // DIAGONAL, SKIP_ONE, SKIP_TWO
          }
        }
        // Two text frames on one recording frame: the one stepped over is counted too.
        const shared = r > 1 ? at(before, c - 1) : Infinity;
        if (shared < best) {
          const cost = shared + d(r - 1, c);
          if (cost < best) {
            best = cost;
            step = SHARE;
          }
        }
      }
      current.cost[c - current.lo] = best + d(r, c);
      steps[base + c - current.lo] = step;
    }
    [before, previous, current] = [previous, current, before];
  }
  let end = previous.lo;
  for (let c = previous.lo; c <= previous.hi; c++) if (at(previous, c) < at(previous, end)) end = c;
  const total = at(previous, end);
  if (!Number.isFinite(total)) throw new NoPathError();
  const pathRows: number[] = [];
  const pathCols: number[] = [];
  for (let r = rows - 1, c = end; ;) {
    pathRows.push(r);
    pathCols.push(c);
    const step = steps[offsets[r] + c - band.lo[r]];
    if (step === START) break;
    if (step === SHARE) {
      pathRows.push(r - 1);
      pathCols.push(c);
      r -= 2;
      c -= 1;
    } else {
      r -= 1;
      c -= step;
    }
  }
  return {
    rows: Int32Array.from(pathRows.reverse()),
    cols: Int32Array.from(pathCols.reverse()),
  };
}
