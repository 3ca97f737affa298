/**
 * A dictd definition as FreeDict writes it: the first line repeats the headword as printed, with its
 * pronunciation and part of speech, and the meaning follows:
 *
 *     Gehen /ɡˈeːən/ <neut, n, sg>
 *     going <n>
 *
 * while the index holds the headword as dictfmt keys it (`gehen`: lower case, punctuation dropped).
 */
export interface DictdEntry {
  headword: string;
  definition: string;
  pos: string | null;
}

/** dictfmt's key: lower case, letters, digits and single spaces only (`Blanca‐Nieve` is `blancanieve`). */
const keyOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, '')
    .replace(/\s+/g, ' ')
    .trim();

/** ` /ˈkasa/`: a pronunciation, between slashes, after a space and before a space or the end. */
const PRONUNCIATION = /\s\/[^/\n]+\/(?=\s|$)/g;
/** `<masc, n, sg>` at the end of the line: its text, and where the line ends without it. */
function posOf(line: string): { pos: string | null; end: number } {
  const end = line.trimEnd();
  const open = end.endsWith('>') ? end.lastIndexOf('<') : -1;
  const pos = open < 0 ? '' : end.slice(open + 1, -1).trim();
  return pos && !pos.includes('>') ? { pos, end: open } : { pos: null, end: line.length };
}

/**
 * The entry under `word` (the index's headword). When the first line prints that headword, the entry
 * takes the printed form (its case and accents: `Gehen`, `¿cuánto tiempo?`) and the first line's part of
 * speech, and the definition is the rest. Otherwise (the index points `ab` at `Aussetzbetrieb (AB)`), the
 * headword is the index's and the definition is the whole text, as a dictd that does not repeat its
 * headwords writes it.
 */
export function dictdEntry(word: string, text: string): DictdEntry {
  const lineEnd = text.indexOf('\n');
  const first = lineEnd < 0 ? text : text.slice(0, lineEnd);
  const rest = lineEnd < 0 ? '' : text.slice(lineEnd + 1);
  const { pos, end } = posOf(first);
  const bare = first.slice(0, end);
  const cut = bare.search(PRONUNCIATION);
  const printed = (cut < 0 ? bare : bare.slice(0, cut)).trim();
  // Most entries print the key itself, or its capitalised form: the cheap comparisons come first.
  const same = printed === word || printed.toLowerCase() === word || keyOf(printed) === keyOf(word);
  if (printed && same) return { headword: printed, definition: rest, pos };
  return { headword: word.trim(), definition: text, pos: null };
}
