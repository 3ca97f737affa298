/**
 * The pieces of the dictation's word alignment (dictation-compare.ts): each side's words and joined runs,
 * the cache of near-match costs, and the table the alignment fills, whole or in a band. Pure TypeScript
 * with no Node or Nest import, like dictation-compare.ts: the reader page runs it in the browser.
 */

import { baseOf, type DictationToken } from './dictation-words';

// Local names: a global looked up in a hot loop is slow in some hosts (a VM context, as the test runner uses).
const { abs, floor, max, min } = Math;

/**
 * Cells of the alignment's table filled at most (each tries up to five pairs): the whole table for an
 * answer to a phrase of up to about 200 words; past that, a band of MAX_CELLS / n cells a row.
 */
export const MAX_CELLS = 40_000;
/** The band's width at least, for phrases of so many words that MAX_CELLS / n is less. */
export const MIN_BAND = 9;
/** Expected or typed words joined at most into one pair. */
export const MAX_JOIN = 3;

// Costs, in integers: a near word must cost less than a missing word plus an extra one (2 × GAP).
export const GAP = 4;
export const ACCENT = 1;
export const NEAR = 4; // plus up to 2 more in proportion to the letters that differ

/** Small numbers for texts, the same for the same text: the alignment compares ids, not strings. */
export class Interner {
  private readonly ids = new Map<string, number>();
  id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) this.ids.set(text, (id = this.ids.size));
    return id;
  }
}

/**
 * One side's words and runs of 2–3 consecutive words joined, as compared: at [k - 1][s], the run of k
 * words from word s. Made when first asked (a banded alignment asks only for those near its band); the
 * ids of keys and bases are shared by both sides, so equal texts have equal ids.
 */
export class Side {
  /** The key's id (-1: not made yet) and its base's id. */
  readonly keyId: Int32Array[];
  readonly baseId: Int32Array[];
  private readonly keys: string[][];
  private readonly letters: Array<Array<string[] | undefined>>;

  constructor(
    readonly tokens: DictationToken[],
    private readonly keyIds: Interner,
    private readonly baseIds: Interner,
  ) {
    const n = tokens.length;
    this.keyId = Array.from({ length: MAX_JOIN }, () => new Int32Array(n).fill(-1));
    this.baseId = Array.from({ length: MAX_JOIN }, () => new Int32Array(n));
    this.keys = Array.from({ length: MAX_JOIN }, () => new Array<string>(n).fill(''));
    this.letters = Array.from({ length: MAX_JOIN }, () => new Array<string[] | undefined>(n).fill(undefined));
  }

  /** Makes the run of k words from s, if not made yet. */
  make(k: number, s: number): void {
    let key = this.tokens[s].key;
    for (let w = 1; w < k; w++) key += this.tokens[s + w].key;
    this.keys[k - 1][s] = key;
    this.keyId[k - 1][s] = this.keyIds.id(key);
    this.baseId[k - 1][s] = this.baseIds.id(k === 1 ? this.tokens[s].base : baseOf(key));
  }

  key(k: number, s: number): string {
    return this.keys[k - 1][s];
  }

  /** The run's base, letter by letter (code points), for letter distances. */
  lettersOf(k: number, s: number): string[] {
    let letters = this.letters[k - 1][s];
    if (!letters) {
      const key = this.keys[k - 1][s];
      letters = Array.from(k === 1 ? this.tokens[s].base : baseOf(key));
      this.letters[k - 1][s] = letters;
    }
    return letters;
  }
}

/** A direct-mapped cache of near-match costs by pair id (ids are below 2^30, so small integers). */
export class NearMemo {
  private static readonly SIZE = 4096;
  private readonly ids = new Int32Array(NearMemo.SIZE).fill(-1);
  private readonly costs = new Int8Array(NearMemo.SIZE);

  get(id: number): number | undefined {
    const at = (id ^ (id >>> 12)) & (NearMemo.SIZE - 1);
    return this.ids[at] === id ? this.costs[at] : undefined;
  }

  set(id: number, cost: number): void {
    const at = (id ^ (id >>> 12)) & (NearMemo.SIZE - 1);
    this.ids[at] = id;
    this.costs[at] = cost;
  }
}

// The alignment's steps, as stored in its table (plain numbers: the browser's build takes no const enum).
// PAIR + (e − 1) × MAX_JOIN + (t − 1): e expected words paired with t typed ones (never both above 1).
export const MISSING = 1;
export const EXTRA = 2;
export const PAIR = 3;
/** A cost no alignment reaches: outside the band. */
const OUTSIDE = 0x7fffffff;
/** The pairs tried in each cell, simplest first: how many expected words, and how many typed ones. */
export const PAIR_EXPECTED = Int8Array.of(1, 1, 1, 2, 3);
export const PAIR_TYPED = Int8Array.of(1, 2, 3, 1, 1);

/**
 * The alignment's table, row by row: row i holds the typed words lo[i] … hi[i], from i × width. All of
 * them when the whole table has at most MAX_CELLS cells; else a band of `width` (MAX_CELLS / n, at least
 * MIN_BAND) placed after the best cell of the row before.
 */
export class Table {
  readonly width: number;
  readonly full: boolean;
  readonly lo: Int32Array;
  readonly hi: Int32Array;
  readonly cost: Uint32Array;
  readonly steps: Uint8Array;

  constructor(
    readonly n: number,
    readonly m: number,
    /** The typed word after `from` (or -1) where expected word i − 1 and the next one are typed. */
    private readonly anchor: (i: number, from: number) => number,
  ) {
    this.full = n * (m + 1) <= MAX_CELLS;
    this.width = this.full ? m + 1 : min(m + 1, max(MIN_BAND, floor(MAX_CELLS / n)));
    this.lo = new Int32Array(n + 1);
    this.hi = new Int32Array(n + 1);
    this.cost = new Uint32Array((n + 1) * this.width);
    this.steps = new Uint8Array((n + 1) * this.width);
    this.hi[0] = this.width - 1;
    for (let j = 0; j < this.width; j++) {
      this.cost[j] = j * GAP;
      this.steps[j] = EXTRA;
    }
  }

  costAt(i: number, j: number): number {
    const lo = this.lo[i];
    return j < lo || j > this.hi[i] ? OUTSIDE : this.cost[i * this.width + j - lo];
  }

  stepAt(i: number, j: number): number {
    return this.steps[i * this.width + j - this.lo[i]];
  }

  /**
   * Places row i: after the cell of row i − 1 whose cost, with the least the rest must still cost (a gap
   * for each word one side has left over the other), is lowest, then whose cost is. So a stretch of missing words keeps the
   * band in place and a stretch of extra words moves it on. Along a stretch of extra words those values
   * tie, so the band is anchored: where the row's expected word is typed further on (and the next one
   * after it), no dearer than the best cell, the band moves towards it, by up to its width a row. Never
   * left of the band before nor right of its end, so that every cell has a cell to come from.
   */
  place(i: number): void {
    if (this.full) {
      this.hi[i] = this.m;
      return;
    }
    const { n, m, width } = this;
    let best = OUTSIDE;
    let bestCost = OUTSIDE;
    let at = this.lo[i - 1];
    for (let j = this.lo[i - 1]; j <= this.hi[i - 1]; j++) {
      const cost = this.costAt(i - 1, j);
      const value = cost + GAP * abs(m - j - (n - i + 1));
      // Of cells as good, the one that cost least so far: the words typed are followed, not skipped.
      if (value < best || (value === best && cost < bestCost)) [best, bestCost, at] = [value, cost, j];
    }
    const last = this.hi[i - 1];
    const q = this.anchor(i, at);
    // The anchor's cell, reached from the band's last cell by extra words.
    if (
      q > at &&
      this.costAt(i - 1, min(q, last)) + GAP * (max(q, last) - last + abs(m - q - (n - i + 1))) <= best
    )
      at = q;
    let lo = max(this.lo[i - 1], min(at + 1 - floor((width - 1) / 2), last, m + 1 - width));
    // Where the next row's word is typed must be in this row, for the next row to pair it.
    const next = i < n ? this.anchor(i + 1, at) : -1;
    if (next > lo + width - 1) lo = max(this.lo[i - 1], min(next - width + 1, last, m + 1 - width));
    this.lo[i] = lo;
    this.hi[i] = this.lo[i] + width - 1;
  }
}
