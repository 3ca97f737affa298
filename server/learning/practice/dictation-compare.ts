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

import {
  ACCENT,
  EXTRA,
  GAP,
  Interner,
  MAX_JOIN,
  MISSING,
  NEAR,
  NearMemo,
  PAIR,
  PAIR_EXPECTED,
  PAIR_TYPED,
  Side,
  Table,
} from './dictation-alignment';
import { boundedDiff, letterDiff, letterDistance, type DiffOp } from './dictation-letters';
import { dictationWords, wordsOf, type DictationToken } from './dictation-words';

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
/** Letter-distance steps at most, over the whole comparison. */
export const LETTER_BUDGET = 60_000;
/** Cells of the letter diffs shown at most, over the whole comparison. */
export const DIFF_BUDGET = 20_000;
/** The text of the remaining extra words shown at most, in the one entry that stands for them. */
const REST_SHOWN = 200;

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
