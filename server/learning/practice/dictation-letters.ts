/**
 * Letters within a dictation's words (docs/practice.md, "Dictation"): how far a typed word is from the
 * phrase's (to pair near words) and which letters differ (shown to the learner). Pure TypeScript, run by
 * the server and by the reader page alike, as dictation-compare.ts that uses it.
 */

// Local names: a global looked up in a hot loop is slow in some hosts (a VM context, as the test runner uses).
const { abs, min } = Math;

/** '=': letters both have; '-': letters of the expected word the typed one lacks; '+': letters typed in excess. */
export type DiffOp = '=' | '-' | '+';

/** What the letter work cost so far: the comparison's own counters (DictationWork). */
export interface LetterWork {
  /** Letter-distance steps taken. */
  letterSteps: number;
  /** Cells of the letter diffs' tables filled. */
  diffCells: number;
}

// Two rows reused by every letter distance (the comparison runs for each of many pairs).
let rowA = new Uint32Array(64);
let rowB = new Uint32Array(64);

/** Levenshtein distance by code point, or limit + 1 as soon as it must exceed `limit`. */
export function letterDistance(a: string[], b: string[], limit: number, work: LetterWork): number {
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
  return diffOf(Array.from(expected), Array.from(typed));
}

/**
 * letterDiff within a budget of table cells for the whole comparison (`budget`, counted in
 * work.diffCells): past it, the common start and end are kept and the middle is one change, the
 * expected letters then the typed ones. A near word is short and costs a few dozen cells; only a pasted
 * word of thousands of letters goes past it.
 */
export function boundedDiff(
  expected: string,
  typed: string,
  work: LetterWork,
  budget: number,
): Array<[DiffOp, string]> {
  const a = Array.from(expected);
  const b = Array.from(typed);
  const cells = (a.length + 1) * (b.length + 1);
  if (work.diffCells + cells <= budget) {
    work.diffCells += cells;
    return diffOf(a, b);
  }
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
    end++;
  const runs: Array<[DiffOp, string[]]> = [
    ['=', a.slice(0, start)],
    ['-', a.slice(start, a.length - end)],
    ['+', b.slice(start, b.length - end)],
    ['=', a.slice(a.length - end)],
  ];
  return runs.filter(([, letters]) => letters.length).map(([op, letters]) => [op, letters.join('')]);
}

function diffOf(a: string[], b: string[]): Array<[DiffOp, string]> {
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
