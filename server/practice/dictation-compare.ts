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
 * - The work is bounded whatever is typed: at most 2n + 10 typed words are aligned (n the phrase's words)
 *   and at most MAX_CELLS cells; the rest is one `extra` entry. Letter distances share a budget
 *   (LETTER_BUDGET steps); past it, only exact and accent matches pair words.
 */

// Local names: a global looked up in a hot loop is slow in some hosts (a VM context, as the test runner uses).
const { abs, floor, max, min, round } = Math;

export type DictationStatus = 'correct' | 'missing' | 'extra' | 'misspelt' | 'accent';
/** '=': letters both have; '-': letters of the expected word the typed one lacks; '+': letters typed in excess. */
export type DiffOp = '=' | '-' | '+';

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
  /** Typed words aligned (the rest went to the one trailing extra entry). */
  typedAligned: number;
}

/**
 * Typed words aligned at most: every expected word typed as two (a split boundary) still fits, and
 * anything beyond cannot add to the score.
 */
export const typedWordsCap = (expectedWords: number) => expectedWords * 2 + 10;
/** Cells of the alignment's table at most (one byte of step and four of cost each). */
export const MAX_CELLS = 500_000;
/** Letter-distance steps at most, over the whole comparison. */
export const LETTER_BUDGET = 20_000_000;
/** The text of the remaining extra words shown at most, in the one entry that stands for them. */
const REST_SHOWN = 200;
/** Expected or typed words joined at most into one pair. */
const MAX_JOIN = 3;

// Costs, in integers: a near word must cost less than a missing word plus an extra one (2 × GAP).
const GAP = 4;
const ACCENT = 1;
const NEAR = 4; // plus up to 2 more in proportion to the letters that differ

export interface DictationToken {
  /** As written. */
  text: string;
  /** Lower case, NFKC, without punctuation, apostrophes, hyphens or invisible characters. */
  key: string;
  /** The key without accents. */
  base: string;
  /** Where the word starts and ends in the NFC text. */
  start: number;
  end: number;
}

/** Apostrophes and hyphens: inside a word they are spelling, not letters; removed before NFKC (´ → " ́"). */
const WORD_INTERNAL = /['’‘‛`´ʹʼ′\-‐‑‒–—―]/gu;
const IGNORED = /[\p{P}\p{S}\p{White_Space}\p{Default_Ignorable_Code_Point}]/gu;
/** Marks taken off to compare "without accents": Latin diacritics, Arabic harakat, Hebrew niqqud. */
const ACCENTS = /[\u0300-\u036f\u064b-\u065f\u0670\u0591-\u05c7]/g;

function lower(text: string, lang: string): string {
  try {
    return text.toLocaleLowerCase(lang);
  } catch {
    return text.toLowerCase();
  }
}

function segmenter(lang: string): Intl.Segmenter | null {
  if (typeof Intl === 'undefined' || typeof Intl.Segmenter !== 'function') return null;
  try {
    return new Intl.Segmenter(lang, { granularity: 'word' });
  } catch {
    return new Intl.Segmenter(undefined, { granularity: 'word' });
  }
}

const keyOf = (text: string, lang: string) =>
  lower(text.replace(WORD_INTERNAL, '').normalize('NFKC'), lang).replace(IGNORED, '');
const baseOf = (key: string) => key.normalize('NFD').replace(ACCENTS, '').normalize('NFC');

/** The words of a text, in order. */
export function dictationWords(text: string, lang: string): DictationToken[] {
  return wordsOf(text.normalize('NFC'), lang, Infinity).tokens;
}

/**
 * The first `limit` words of an NFC text and where the next word starts (null when none is left): the
 * segmenter is lazy, so a long answer is read no further than the alignment needs.
 */
function wordsOf(
  normal: string,
  lang: string,
  limit: number,
): { tokens: DictationToken[]; restAt: number | null } {
  const seg = segmenter(lang);
  const parts: Iterable<{ segment: string; index: number; isWordLike?: boolean }> = seg
    ? seg.segment(normal)
    : [...normal.matchAll(/[^\s\p{P}]+/gu)].map((m) => ({
        segment: m[0],
        index: m.index ?? 0,
        isWordLike: true,
      }));
  const tokens: DictationToken[] = [];
  for (const { segment, index, isWordLike } of parts) {
    if (!isWordLike) continue;
    const key = keyOf(segment, lang);
    if (!key) continue;
    if (tokens.length === limit) return { tokens, restAt: index };
    tokens.push({ text: segment, key, base: baseOf(key), start: index, end: index + segment.length });
  }
  return { tokens, restAt: null };
}

// Two rows reused by every letter distance (the comparison runs for each of many pairs).
let rowA = new Uint32Array(64);
let rowB = new Uint32Array(64);

/** Levenshtein distance by code point, or limit + 1 as soon as it must exceed `limit`. */
function letterDistance(a: string[], b: string[], limit: number, work: DictationWork): number {
  if (abs(a.length - b.length) > limit) return limit + 1;
  if (rowA.length <= b.length) {
    rowA = new Uint32Array(b.length * 2 + 1);
    rowB = new Uint32Array(b.length * 2 + 1);
  }
  let previous = rowA;
  let current = rowB;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const value = min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      current[j] = value;
      if (value < best) best = value;
    }
    work.letterSteps += b.length;
    if (best > limit) return limit + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}

/** Letter runs that differ between two words (expected → typed), merged into as few segments as can be. */
export function letterDiff(expected: string, typed: string): Array<[DiffOp, string]> {
  const a = Array.from(expected);
  const b = Array.from(typed);
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = 0; i <= a.length; i++)
    for (let j = 0; j <= b.length; j++)
      table[i * width + j] =
        i === 0 || j === 0
          ? i + j
          : min(
              table[(i - 1) * width + j] + 1,
              table[i * width + j - 1] + 1,
              table[(i - 1) * width + j - 1] + (a[i - 1] === b[j - 1] ? 0 : 2), // a change is a '-' and a '+'
            );
  const at = (i: number, j: number) => table[i * width + j];
  const ops: Array<[DiffOp, string]> = [];
  const push = (op: DiffOp, ch: string) => {
    const last = ops[ops.length - 1];
    if (last && last[0] === op) last[1] += ch;
    else ops.push([op, ch]);
  };
  let i = a.length;
  let j = b.length;
  const reversed: Array<[DiffOp, string]> = [];
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && a[i - 1] === b[j - 1] && at(i, j) === at(i - 1, j - 1)) {
      reversed.push(['=', a[--i]]);
      j--;
    } else if (j > 0 && (i === 0 || at(i, j) === at(i, j - 1) + 1)) reversed.push(['+', b[--j]]);
    else reversed.push(['-', a[--i]]);
  }
  // Within a change, the expected letters come before the typed ones.
  for (let k = reversed.length - 1; k >= 0; k--) push(reversed[k][0], reversed[k][1]);
  return ops;
}

/** A word, or 2–3 consecutive words joined, as compared: interned so equal keys compare by id. */
interface Unit {
  key: string;
  /** Ids of the key and the base, shared by both sides: equal for equal texts. */
  keyId: number;
  baseId: number;
  /** The key's place among its own side's distinct keys: a small index for the memo of distances. */
  slot: number;
  letters: string[];
}

class Interner {
  private readonly ids = new Map<string, number>();
  id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) this.ids.set(text, (id = this.ids.size));
    return id;
  }
}

/** runs[k - 1][s]: the words s … s + k − 1 joined, for k = 1 … MAX_JOIN, and how many distinct keys. */
function runsOf(
  tokens: DictationToken[],
  keys: Interner,
  bases: Interner,
): { runs: Unit[][]; slots: number } {
  const slots = new Interner();
  const runs = Array.from({ length: MAX_JOIN }, (_, k) =>
    tokens.slice(0, max(0, tokens.length - k)).map((_, s): Unit => {
      const key = tokens
        .slice(s, s + k + 1)
        .map((t) => t.key)
        .join('');
      const base = baseOf(key);
      return {
        key,
        keyId: keys.id(key),
        baseId: bases.id(base),
        slot: slots.id(key),
        letters: Array.from(base),
      };
    }),
  );
  return { runs, slots: slots.id('\u0000') };
}

// The alignment's steps, as stored in its table (plain numbers: the browser's build takes no const enum).
// PAIR + (e − 1) × MAX_JOIN + (t − 1): e expected words paired with t typed ones (never both above 1).
const MISSING = 1;
const EXTRA = 2;
const PAIR = 3;

/** Scores a dictation: see the rules at the top of this file. `work`, when given, is told what it cost. */
export function compareDictation(
  expectedText: string,
  typedText: string,
  strict: boolean,
  lang: string,
  work: DictationWork = { cells: 0, letterSteps: 0, typedAligned: 0 },
): DictationResult {
  const expectedNormal = expectedText.normalize('NFC');
  const typedNormal = typedText.normalize('NFC');
  const expected = wordsOf(expectedNormal, lang, Infinity).tokens;
  const n = expected.length;
  const cap = min(typedWordsCap(n), max(0, floor(MAX_CELLS / (n + 1)) - 1));
  const { tokens: typed, restAt } = wordsOf(typedNormal, lang, cap);
  const m = typed.length;
  work.typedAligned = m;

  const keys = new Interner();
  const bases = new Interner();
  const { runs: expectedRuns, slots: expectedSlots } = runsOf(expected, keys, bases);
  const { runs: typedRuns, slots: typedSlots } = runsOf(typed, keys, bases);
  // Near-match costs, memoised by (expected key, typed key), since answers repeat words: at most
  // (3n)(3m) ≤ 9 × MAX_CELLS bytes; -2 for not known yet.
  const memo = new Int8Array(expectedSlots * typedSlots).fill(-2);
  const near = (e: Unit, t: Unit): number => {
    const limit = max(1, floor(e.letters.length / 2));
    if (abs(e.letters.length - t.letters.length) > limit) return -1;
    const at = e.slot * typedSlots + t.slot;
    if (memo[at] !== -2) return memo[at];
    let cost = -1;
    if (work.letterSteps + e.letters.length * t.letters.length <= LETTER_BUDGET) {
      const distance = letterDistance(e.letters, t.letters, limit, work);
      if (distance <= limit) cost = NEAR + round((2 * distance) / limit);
    }
    memo[at] = cost;
    return cost;
  };
  /** The cost of letting typed unit t stand for expected unit e, or -1 when they are too far apart. */
  const pairCost = (e: Unit, t: Unit): number =>
    e.keyId === t.keyId ? 0 : e.baseId === t.baseId ? ACCENT : near(e, t);

  // A table of costs and one of steps, to walk back.
  const width = m + 1;
  const cost = new Uint32Array((n + 1) * width);
  const steps = new Uint8Array((n + 1) * width);
  for (let j = 0; j <= m; j++) {
    cost[j] = j * GAP;
    steps[j] = EXTRA;
  }
  for (let i = 1; i <= n; i++) {
    cost[i * width] = i * GAP;
    steps[i * width] = MISSING;
    for (let j = 1; j <= m; j++) {
      work.cells++;
      let best = cost[(i - 1) * width + j] + GAP;
      let step = MISSING;
      // Ties go to an extra word here, so that walking back lists a missing word before an extra one.
      if (cost[i * width + j - 1] + GAP <= best) {
        best = cost[i * width + j - 1] + GAP;
        step = EXTRA;
      }
      // One expected word with 1–3 typed ones, then 2–3 expected words with one typed. Ties keep the
      // earlier (simpler) step: walking back from the end, the gaps come last, so of equally good
      // alignments the one that pairs words earliest is kept (it reads from left to right).
      for (let k = 1; k <= MAX_JOIN * 2 - 1; k++) {
        const e = k <= MAX_JOIN ? 1 : k - MAX_JOIN + 1;
        const t = k <= MAX_JOIN ? k : 1;
        if (e > i || t > j) continue;
        const from = cost[(i - e) * width + j - t];
        if (from >= best) continue; // no pair can do better
        const pair = pairCost(expectedRuns[e - 1][i - e], typedRuns[t - 1][j - t]);
        if (pair >= 0 && from + pair < best) {
          best = from + pair;
          step = PAIR + (e - 1) * MAX_JOIN + (t - 1);
        }
      }
      cost[i * width + j] = best;
      steps[i * width + j] = step;
    }
  }

  const words: DictationWord[] = [];
  const span = (text: string, tokens: DictationToken[], from: number, count: number) =>
    count === 1
      ? tokens[from].text
      : text.slice(tokens[from].start, tokens[from + count - 1].end).replace(/\s+/g, ' ');
  let credit = 0;
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const step = i === 0 ? EXTRA : j === 0 ? MISSING : steps[i * width + j];
    if (step === MISSING) words.push({ expected: expected[--i].text, typed: null, status: 'missing' });
    else if (step === EXTRA) words.push({ expected: null, typed: typed[--j].text, status: 'extra' });
    else {
      const e = floor((step - PAIR) / MAX_JOIN) + 1;
      const t = ((step - PAIR) % MAX_JOIN) + 1;
      i -= e;
      j -= t;
      const eu = expectedRuns[e - 1][i];
      const tu = typedRuns[t - 1][j];
      const pair = {
        expected: span(expectedNormal, expected, i, e),
        typed: span(typedNormal, typed, j, t),
      };
      if (eu.keyId === tu.keyId) {
        words.push({ ...pair, status: 'correct' });
        credit += e;
      } else {
        const accent = eu.baseId === tu.baseId && !strict;
        words.push({ ...pair, status: accent ? 'accent' : 'misspelt', diff: letterDiff(eu.key, tu.key) });
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
