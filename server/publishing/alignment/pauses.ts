import { ENERGY_MS } from './features';

/** A stretch of the recording quieter than its speech: where a cut belongs. */
export interface Pause {
  startMs: number;
  endMs: number;
}

/** A pause is at least this long: shorter dips are stops inside words (p, t, k). */
const MIN_PAUSE_MS = 60;
/** How far from where the warping put it a boundary looks for a pause. */
export const SNAP_WINDOW_MS = 500;

function percentile(sorted: Float32Array, share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

/**
 * The recording's pauses, from its 10 ms energies. The threshold sits between its quiet floor (the
 * noise) and its speech, so a hiss, a room's hum or a louder reading move it with them.
 */
export function findPauses(energies: Float32Array, count: number): Pause[] {
  if (!count) return [];
  const sorted = Float32Array.from(energies.subarray(0, count)).sort();
  const floor = percentile(sorted, 0.1);
  const speech = percentile(sorted, 0.9);
  const threshold = floor + 0.3 * (speech - floor);
  const pauses: Pause[] = [];
  let from = -1;
  for (let i = 0; i <= count; i++) {
    const quiet = i < count && energies[i] < threshold;
    if (quiet && from < 0) from = i;
    if (!quiet && from >= 0) {
      if ((i - from) * ENERGY_MS >= MIN_PAUSE_MS)
        pauses.push({ startMs: from * ENERGY_MS, endMs: i * ENERGY_MS });
      from = -1;
    }
  }
  return pauses;
}

/**
 * The middle of the pause nearest `ms` within SNAP_WINDOW_MS (the longer of two as near), and how sure
 * that is: 1 when `ms` fell inside it, less the further it had to go, 0.2 with no pause near.
 */
export function snapToPause(pauses: readonly Pause[], ms: number): { ms: number; score: number } {
  let best: Pause | null = null;
  let bestDistance = Infinity;
  // Binary search for the first pause ending after the window begins.
  let low = 0;
  let high = pauses.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (pauses[mid].endMs < ms - SNAP_WINDOW_MS) low = mid + 1;
    else high = mid;
  }
  for (let i = low; i < pauses.length && pauses[i].startMs <= ms + SNAP_WINDOW_MS; i++) {
    const pause = pauses[i];
    const away = ms < pause.startMs ? pause.startMs - ms : ms > pause.endMs ? ms - pause.endMs : 0;
    const longer = best && pause.endMs - pause.startMs > best.endMs - best.startMs;
    if (away < bestDistance || (away === bestDistance && longer)) {
      best = pause;
      bestDistance = away;
    }
  }
  if (!best) return { ms, score: 0.2 };
  return { ms: (best.startMs + best.endMs) / 2, score: 1 - 0.6 * (bestDistance / SNAP_WINDOW_MS) };
}
