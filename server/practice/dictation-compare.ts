/**
 * Dictation: what the learner typed against the phrase, word by word (docs/practice.md, "Dictation").
 * Pure TypeScript with no Node or Nest import: the server scores members' attempts with it, and the reader
 * page runs the same code in the browser for visitors, so both always agree.
 *
 * - Words are split with `Intl.Segmenter` (word granularity, word-like segments only), so punctuation and
 *   spacing never count, and languages written without spaces (Japanese, Chinese, Thai) split into words.
 * - Two words are the same when they match ignoring case and punctuation inside them ("aujourd’hui" and
 *   "Aujourd'hui"). When they match only once accents are taken off (Unicode's combining diacritical marks,
 *   U+0300 to U+036F, after NFD: é è ê ç ñ ü ő č …), the word is an `accent` slip, or `misspelt` in
 *   strict mode.
 * - The expected and typed words are aligned by a word-level edit distance, where a typed word may stand
 *   for an expected one it is near to (a letter distance of at most half the expected word's length, at
 *   least 1): that pair is `misspelt`, rather than a `missing` word and an `extra` one.
 * - score = round(100 × max(0, correct + ½ × accent − extra) / expected words): an accent-only slip counts
 *   half (nothing in strict mode, where it is misspelt), and each extra word costs as much as a missing
 *   one, never below 0. A phrase without words scores 100 for an answer without words, else 0.
 */

export type DictationStatus = 'correct' | 'missing' | 'extra' | 'misspelt' | 'accent';
/** '=': letters both have; '-': letters of the expected word the typed one lacks; '+': letters typed in excess. */
export type DiffOp = '=' | '-' | '+';

export interface DictationWord {
  /** The phrase's word as written there; null for an extra word. */
  expected: string | null;
  /** The learner's word as typed; null for a missing word. */
  typed: string | null;
  status: DictationStatus;
  /** For `misspelt` and `accent` words: which letters differ, on the lower-case forms (expected → typed). */
  diff?: Array<[DiffOp, string]>;
}

export interface DictationResult {
  /** 0 to 100. */
  score: number;
  words: DictationWord[];
}

/** Typed words aligned at most: beyond it, the rest is extra (the score is 0 by then anyway, see below). */
export const typedWordsCap = (expectedWords: number) => expectedWords * 3 + 50;
/**
 * Cells of the alignment's table at most (one byte each, plus two rows of costs). A phrase holds at most
 * 2,000 characters, so this binds only for the longest phrases, and then still leaves room for every
 * expected word and 50 more.
 */
const MAX_CELLS = 4_000_000;
/** The text of the remaining extra words shown at most, in the one entry that stands for them. */
const REST_SHOWN = 200;

// Costs, in integers: a near word must cost less than a missing word plus an extra one (2 × GAP).
const GAP = 4;
const ACCENT = 1;
const NEAR = 4; // plus up to 2 more in proportion to the letters that differ

export interface DictationToken {
  /** As written. */
  text: string;
  /** Lower case, punctuation removed. */
  key: string;
  /** The key without accents. */
  base: string;
}

const DIACRITICS = /[\u0300-\u036f]/g;
const PUNCTUATION = /[\p{P}\p{S}]/gu;

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

/** The words of a text, in order. */
export function dictationWords(text: string, lang: string): DictationToken[] {
  const normal = text.normalize('NFC');
  const seg = segmenter(lang);
  const parts = seg
    ? [...seg.segment(normal)].filter((s) => s.isWordLike).map((s) => s.segment)
    : normal.split(/[\s\p{P}]+/u);
  const tokens: DictationToken[] = [];
  for (const part of parts) {
    const key = lower(part, lang).replace(PUNCTUATION, '');
    if (!key) continue;
    tokens.push({ text: part, key, base: key.normalize('NFD').replace(DIACRITICS, '').normalize('NFC') });
  }
  return tokens;
}

/** Levenshtein distance by code point, or limit + 1 as soon as it must exceed `limit`. */
function letterDistance(a: string[], b: string[], limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length];
}

/** Letter runs that differ between two words (expected → typed), merged into as few segments as can be. */
export function letterDiff(expected: string, typed: string): Array<[DiffOp, string]> {
  const a = Array.from(expected);
  const b = Array.from(typed);
  const table: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    table.push([]);
    for (let j = 0; j <= b.length; j++)
      table[i][j] =
        i === 0 || j === 0
          ? i + j
          : Math.min(
              table[i - 1][j] + 1,
              table[i][j - 1] + 1,
              table[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 2), // a change is a '-' and a '+'
            );
  }
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
    if (i > 0 && j > 0 && a[i - 1] === b[j - 1] && table[i][j] === table[i - 1][j - 1]) {
      reversed.push(['=', a[--i]]);
      j--;
    } else if (j > 0 && (i === 0 || table[i][j] === table[i][j - 1] + 1)) reversed.push(['+', b[--j]]);
    else reversed.push(['-', a[--i]]);
  }
  // Within a change, the expected letters come before the typed ones.
  for (let k = reversed.length - 1; k >= 0; k--) push(reversed[k][0], reversed[k][1]);
  return ops;
}

// The alignment's steps, as stored in its table (plain numbers: the browser's build takes no const enum).
const DIAGONAL = 1;
const MISSING = 2;
const EXTRA = 3;

/** Scores a dictation: see the rules at the top of this file. */
export function compareDictation(
  expectedText: string,
  typedText: string,
  strict: boolean,
  lang: string,
): DictationResult {
  const expected = dictationWords(expectedText, lang);
  const allTyped = dictationWords(typedText, lang);
  const n = expected.length;
  const cap = Math.min(typedWordsCap(n), Math.max(n + 50, Math.floor(MAX_CELLS / (n + 1)) - 1));
  const typed = allTyped.slice(0, cap);
  const rest = allTyped.slice(cap);
  const m = typed.length;

  const letters = expected.map((t) => Array.from(t.base));
  const typedLetters = typed.map((t) => Array.from(t.base));
  /** The cost of letting typed word j stand for expected word i, or -1 when they are too far apart. */
  const pairCost = (i: number, j: number): number => {
    const e = expected[i];
    const t = typed[j];
    if (e.key === t.key) return 0;
    if (e.base === t.base) return ACCENT;
    const limit = Math.max(1, Math.floor(letters[i].length / 2));
    const distance = letterDistance(letters[i], typedLetters[j], limit);
    if (distance > limit) return -1;
    return NEAR + Math.round((2 * distance) / limit);
  };

  // Rolling cost rows and a table of steps (one byte a cell) to walk back.
  const steps = new Uint8Array((n + 1) * (m + 1));
  let previous = new Uint32Array(m + 1);
  let current = new Uint32Array(m + 1);
  for (let j = 0; j <= m; j++) {
    previous[j] = j * GAP;
    steps[j] = EXTRA;
  }
  for (let i = 1; i <= n; i++) {
    current[0] = i * GAP;
    steps[i * (m + 1)] = MISSING;
    for (let j = 1; j <= m; j++) {
      let best = previous[j] + GAP;
      let step = MISSING;
      // Ties go to an extra word here, so that walking back lists a missing word before an extra one.
      if (current[j - 1] + GAP <= best) {
        best = current[j - 1] + GAP;
        step = EXTRA;
      }
      const pair = pairCost(i - 1, j - 1);
      // Ties go to the gap: walking back from the end, the gaps come last, so of equally good
      // alignments the one that pairs words earliest is kept (it reads from left to right).
      if (pair >= 0 && previous[j - 1] + pair < best) {
        best = previous[j - 1] + pair;
        step = DIAGONAL;
      }
      current[j] = best;
      steps[i * (m + 1) + j] = step;
    }
    [previous, current] = [current, previous];
  }

  const words: DictationWord[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const step = i === 0 ? EXTRA : j === 0 ? MISSING : steps[i * (m + 1) + j];
    if (step === DIAGONAL) {
      const e = expected[--i];
      const t = typed[--j];
      if (e.key === t.key) words.push({ expected: e.text, typed: t.text, status: 'correct' });
      else
        words.push({
          expected: e.text,
          typed: t.text,
          status: e.base === t.base && !strict ? 'accent' : 'misspelt',
          diff: letterDiff(e.key, t.key),
        });
    } else if (step === MISSING) words.push({ expected: expected[--i].text, typed: null, status: 'missing' });
    else words.push({ expected: null, typed: typed[--j].text, status: 'extra' });
  }
  words.reverse();
  if (rest.length) {
    const shown = rest.map((t) => t.text).join(' ');
    words.push({
      expected: null,
      typed: shown.length > REST_SHOWN ? `${Array.from(shown).slice(0, REST_SHOWN).join('')}…` : shown,
      status: 'extra',
    });
  }

  const count = (status: DictationStatus) => words.filter((w) => w.status === status).length;
  const extra = count('extra') - (rest.length ? 1 : 0) + rest.length;
  if (n === 0) return { score: allTyped.length ? 0 : 100, words };
  const credit = count('correct') + 0.5 * count('accent') - extra;
  return { score: Math.round((100 * Math.max(0, credit)) / n), words };
}
