/**
 * Dictation: what the learner typed against the phrase, word by word (docs/practice.md, "Dictation").
 * Pure TypeScript with no Node or Nest import: the server scores members' attempts with it, and the reader
 * page runs the same code in the browser for visitors, so both always agree.
 *
 * - Words are split with `Intl.Segmenter` (word granularity, word-like segments only), so punctuation and
 *   spacing never count, and languages written without spaces (Japanese, Chinese, Thai) split into words.
 * - A word's key: NFKC (full-width letters and digits, ligatures), lower case, without punctuation,
 *   symbols, apostrophes of any kind (' ’ ` ´ ʼ), hyphens and invisible characters (soft hyphen, ZWNJ).
 *   Two words are the same when their keys are. When they match only once accents are taken off (Latin
 *   diacritics U+0300–036F after NFD, Arabic harakat U+064B–065F and U+0670, Hebrew niqqud U+0591–05C7),
 *   the word is an `accent` slip, or `misspelt` in strict mode.
 * - Where the learner put a word boundary elsewhere ("l homme" for "l'homme", "weekend" for "week-end",
 *   "喜换" segmented as two words for "喜欢"), one expected word may pair with 2 or 3 consecutive typed
 *   words, and 2 or 3 expected words with one typed word, compared on their joined keys.
 * - The words are aligned by a word-level edit distance, where a typed word may stand for an expected one
 *   it is near to (a letter distance of at most half the expected word's length, at least 1): that pair is
 *   `misspelt`, rather than a `missing` word and an `extra` one.
 * - score = round(100 × (correct + ½ × accent) / expected words), counting the phrase's words: an
 *   accent-only slip counts half (nothing in strict mode, where it is misspelt). Extra words are shown but
 *   cost nothing. A phrase without words scores 100 for an answer without words, else 0.
 * - The work is bounded whatever is typed (milliseconds, not seconds: docs/practice.md, "Bounds"): the
 *   answer is cut to what is kept of it (keptAnswer), at most 2n + 10 typed words are aligned (n the
 *   phrase's words) and the rest is one `extra` entry; the alignment fills at most MAX_CELLS cells (past
 *   that, a band that follows the best alignment so far); letter distances share a budget of
 *   LETTER_BUDGET steps, past which only exact and accent matches pair words; letter diffs share
 *   DIFF_BUDGET cells, past which a diff keeps the common start and end and changes the middle.
 */

import { boundedDiff, letterDiff, letterDistance, type DiffOp } from './dictation-letters';
import { baseOf, dictationWords, wordsOf, type DictationToken } from './dictation-words';

export { dictationWords, letterDiff };
export type { DictationToken, DiffOp };

// Local names: a global looked up in a hot loop is slow in some hosts (a VM context, as the test runner uses).
const { abs, floor, max, min, round } = Math;

export type DictationStatus = 'correct' | 'missing' | 'extra' | 'misspelt' | 'accent';

export interface DictationWord {
  /** The phrase's word (or words, for a boundary typed elsewhere) as written there; null for an extra word. */
  expected: string | null;
  /** The learner's word (or words) as typed; null for a missing word. */
  typed: string | null;
  status: DictationStatus;
  /** For `misspelt` and `accent` words: which letters differ, on the keys (expected → typed). */
  diff?: Array<[DiffOp, string]>;
}

export interface DictationResult {
  /** 0 to 100. */
  score: number;
  words: DictationWord[];
}

/** What a comparison cost, for tests that check the work stays bounded without timing it. */
export interface DictationWork {
  /** Alignment cells filled. */
  cells: number;
  /** Letter-distance steps taken. */
  letterSteps: number;
  /** Cells of the letter diffs' tables filled. */
  diffCells: number;
  /** Typed words aligned (the rest went to the one trailing extra entry). */
  typedAligned: number;
  /** Characters of the answer compared (UTF-16 code units, as keptAnswer left it). */
  typedChars: number;
}

/** What a comparison costs at first, to pass to compareDictation and read afterwards. */
export const noWork = (): DictationWork => ({
  cells: 0,
  letterSteps: 0,
  diffCells: 0,
  typedAligned: 0,
  typedChars: 0,
});

/** The longest answer the API takes, in characters (practice.dto.ts refuses more). */
export const ANSWER_MAX = 10_000;
/**
 * Typed words aligned at most: every expected word typed as two (a split boundary) still fits, and
 * anything beyond cannot add to the score.
 */
export const typedWordsCap = (expectedWords: number) => expectedWords * 2 + 10;
/**
 * Cells of the alignment's table filled at most (each tries up to five pairs): the whole table for an
 * answer to a phrase of up to about 200 words; past that, a band of MAX_CELLS / n cells a row.
 */
export const MAX_CELLS = 40_000;
/** The band's width at least, for phrases of so many words that MAX_CELLS / n is less. */
export const MIN_BAND = 9;
/** Letter-distance steps at most, over the whole comparison. */
export const LETTER_BUDGET = 60_000;
/** Cells of the letter diffs shown at most, over the whole comparison. */
export const DIFF_BUDGET = 20_000;
/** The text of the remaining extra words shown at most, in the one entry that stands for them. */
const REST_SHOWN = 200;
/** Expected or typed words joined at most into one pair. */
const MAX_JOIN = 3;

// Costs, in integers: a near word must cost less than a missing word plus an extra one (2 × GAP).
const GAP = 4;
const ACCENT = 1;
const NEAR = 4; // plus up to 2 more in proportion to the letters that differ

/**
 * What is compared and kept of an answer: up to 4 characters per character of the phrase and 100 more,
 * never above ANSWER_MAX, in UTF-16 code units (as the work is counted: DictationWork.typedChars), cut
 * between code points. Any honest attempt is whole; a pasted wall of text is neither compared nor stored
 * whole (docs/practice.md, "Dictation").
 */
export function keptAnswer(typed: string, phrase: string): string {
  let end = min(ANSWER_MAX, 4 * phrase.length + 100);
  if (typed.length <= end) return typed;
  // Never between the two halves of a surrogate pair (an emoji, say).
  if (/[\udc00-\udfff]/.test(typed[end]) && /[\ud800-\udbff]/.test(typed[end - 1])) end--;
  return typed.slice(0, end);
}

class Interner {
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
class Side {
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
class NearMemo {
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
const MISSING = 1;
const EXTRA = 2;
const PAIR = 3;
/** A cost no alignment reaches: outside the band. */
const OUTSIDE = 0x7fffffff;
/** The pairs tried in each cell, simplest first: how many expected words, and how many typed ones. */
const PAIR_EXPECTED = Int8Array.of(1, 1, 1, 2, 3);
const PAIR_TYPED = Int8Array.of(1, 2, 3, 1, 1);

/**
 * The alignment's table, row by row: row i holds the typed words lo[i] … hi[i], from i × width. All of
 * them when the whole table has at most MAX_CELLS cells; else a band of `width` (MAX_CELLS / n, at least
 * MIN_BAND) placed after the best cell of the row before.
 */
class Table {
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

/** Scores a dictation: see the rules at the top of this file. `work`, when given, is told what it cost. */
export function compareDictation(
  expectedText: string,
  typedText: string,
  strict: boolean,
  lang: string,
  work: DictationWork = noWork(),
): DictationResult {
  const expectedNormal = expectedText.normalize('NFC');
  const kept = keptAnswer(typedText, expectedText);
  work.typedChars = kept.length;
  const typedNormal = kept.normalize('NFC');
  const expected = wordsOf(expectedNormal, lang, Infinity).tokens;
  const n = expected.length;
  const { tokens: typed, restAt } = wordsOf(typedNormal, lang, typedWordsCap(n));
  const m = typed.length;
  work.typedAligned = m;

  const keyIds = new Interner();
  const baseIds = new Interner();
  const ex = new Side(expected, keyIds, baseIds);
  const ty = new Side(typed, keyIds, baseIds);
  // Near-match costs, remembered by (expected key, typed key), since answers repeat words: a small
  // cache, whose misses only cost a distance computed again (within the same budget).
  const memo = new NearMemo();
  const keyCount = MAX_JOIN * (n + m) + 1;
  const near = (e: number, s: number, t: number, u: number): number => {
    if (work.letterSteps >= LETTER_BUDGET) return -1;
    const pairId = ex.keyId[e - 1][s] * keyCount + ty.keyId[t - 1][u];
    const known = memo.get(pairId);
    if (known !== undefined) return known;
    const a = ex.lettersOf(e, s);
    const b = ty.lettersOf(t, u);
    const limit = max(1, floor(a.length / 2));
    let cost = -1;
    if (abs(a.length - b.length) <= limit && work.letterSteps + a.length * b.length <= LETTER_BUDGET) {
      const distance = letterDistance(a, b, limit, work);
      if (distance <= limit) cost = NEAR + round((2 * distance) / limit);
    }
    memo.set(pairId, cost);
    return cost;
  };

  // Where each word is typed (typed word indices, in order), to anchor a band (Table.place).
  const typedAt = new Map<string, number[]>();
  typed.forEach((token, at) => {
    const list = typedAt.get(token.key);
    if (list) list.push(at);
    else typedAt.set(token.key, [at]);
  });
  const anchor = (i: number, from: number): number => {
    const list = typedAt.get(expected[i - 1].key);
    if (!list) return -1;
    let [a, b] = [0, list.length];
    while (a < b) {
      const mid = (a + b) >> 1;
      if (list[mid] < from) a = mid + 1;
      else b = mid;
    }
    const q = a < list.length ? list[a] : -1;
    // The next word typed after it too, so that a common word further on does not pull the band away.
    if (q < 0 || (i < n && (q + 1 >= m || typed[q + 1].key !== expected[i].key))) return -1;
    return q;
  };
  const table = new Table(n, m, anchor);
  const { cost, steps, lo, hi, width } = table;
  for (let i = 1; i <= n; i++) {
    table.place(i);
    const row = i * width;
    for (let j = lo[i]; j <= hi[i]; j++) {
      const cell = row + j - lo[i];
      if (j === 0) {
        cost[cell] = i * GAP;
        steps[cell] = MISSING;
        continue;
      }
      work.cells++;
      let best = table.costAt(i - 1, j) + GAP;
      let step = MISSING;
      // Ties go to an extra word here, so that walking back lists a missing word before an extra one.
      if (j > lo[i] && cost[cell - 1] + GAP <= best) {
        best = cost[cell - 1] + GAP;
        step = EXTRA;
      }
      // One expected word with 1–3 typed ones, then 2–3 expected words with one typed. Ties keep the
      // earlier (simpler) step: walking back from the end, the gaps come last, so of equally good
      // alignments the one that pairs words earliest is kept (it reads from left to right).
      for (let p = 0; p < PAIR_EXPECTED.length; p++) {
        const e = PAIR_EXPECTED[p];
        const t = PAIR_TYPED[p];
        const r = i - e;
        const c = j - t;
        if (r < 0 || c < lo[r] || c > hi[r]) continue;
        const from = cost[r * width + c - lo[r]];
        if (from >= best) continue; // no pair can do better
        if (ex.keyId[e - 1][r] < 0) ex.make(e, r);
        if (ty.keyId[t - 1][c] < 0) ty.make(t, c);
        // A near pair costs NEAR or more: it is looked for only when it could do better.
        const pair =
          ex.keyId[e - 1][r] === ty.keyId[t - 1][c]
            ? 0
            : ex.baseId[e - 1][r] === ty.baseId[t - 1][c]
              ? ACCENT
              : from + NEAR < best
                ? near(e, r, t, c)
                : -1;
        if (pair >= 0 && from + pair < best) {
          best = from + pair;
          step = PAIR + (e - 1) * MAX_JOIN + (t - 1);
        }
      }
      cost[cell] = best;
      steps[cell] = step;
    }
  }

  const words: DictationWord[] = [];
  const span = (text: string, tokens: DictationToken[], from: number, count: number) =>
    count === 1
      ? tokens[from].text
      : text.slice(tokens[from].start, tokens[from + count - 1].end).replace(/\s+/g, ' ');
  // A band may end before the last typed word: it ends at the cell of its last row that leaves the least
  // to pay, and the typed words after it are extra.
  let j = m;
  if (hi[n] < m) {
    j = lo[n];
    for (let k = lo[n]; k <= hi[n]; k++)
      if (table.costAt(n, k) + GAP * (m - k) < table.costAt(n, j) + GAP * (m - j)) j = k;
    for (let k = m - 1; k >= j; k--) words.push({ expected: null, typed: typed[k].text, status: 'extra' });
  }
  let credit = 0;
  let i = n;
  while (i > 0 || j > 0) {
    const step = i === 0 ? EXTRA : j === 0 ? MISSING : table.stepAt(i, j);
    if (step === MISSING) words.push({ expected: expected[--i].text, typed: null, status: 'missing' });
    else if (step === EXTRA) words.push({ expected: null, typed: typed[--j].text, status: 'extra' });
    else {
      const e = floor((step - PAIR) / MAX_JOIN) + 1;
      const t = ((step - PAIR) % MAX_JOIN) + 1;
      i -= e;
      j -= t;
      const pair = {
        expected: span(expectedNormal, expected, i, e),
        typed: span(typedNormal, typed, j, t),
      };
      if (ex.keyId[e - 1][i] === ty.keyId[t - 1][j]) {
        words.push({ ...pair, status: 'correct' });
        credit += e;
      } else {
        const accent = ex.baseId[e - 1][i] === ty.baseId[t - 1][j] && !strict;
        const diff = boundedDiff(ex.key(e, i), ty.key(t, j), work, DIFF_BUDGET);
        words.push({ ...pair, status: accent ? 'accent' : 'misspelt', diff });
        if (accent) credit += e / 2;
      }
    }
  }
  words.reverse();
  if (restAt !== null) {
    const shown = Array.from(
      typedNormal
        .slice(restAt, restAt + REST_SHOWN * 4)
        .replace(/\s+/g, ' ')
        .trim(),
    );
    words.push({
      expected: null,
      typed: shown.length > REST_SHOWN ? `${shown.slice(0, REST_SHOWN).join('')}…` : shown.join(''),
      status: 'extra',
    });
  }

  if (n === 0) return { score: m ? 0 : 100, words };
  return { score: round((100 * credit) / n), words };
}
