/**
 * A dictation's words (docs/practice.md, "Dictation"): split with `Intl.Segmenter`, each with the key it
 * is compared by. Pure TypeScript, run by the server and by the reader page alike, as dictation-compare.ts
 * that uses it.
 */

const { min } = Math;

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
/** A word that is its own key and base: lower-case ASCII letters and digits. */
const PLAIN = /^[a-z0-9]+$/;

function lower(text: string, lang: string): string {
  try {
    return text.toLocaleLowerCase(lang);
  } catch {
    return text.toLowerCase();
  }
}

/** Segmenters by language, made once: making one costs more than segmenting a phrase. */
const segmenters = new Map<string, Intl.Segmenter | null>();

function segmenter(lang: string): Intl.Segmenter | null {
  let seg = segmenters.get(lang);
  if (seg !== undefined) return seg;
  if (typeof Intl === 'undefined' || typeof Intl.Segmenter !== 'function') seg = null;
  else
    try {
      seg = new Intl.Segmenter(lang, { granularity: 'word' });
    } catch {
      seg = new Intl.Segmenter(undefined, { granularity: 'word' });
    }
  if (segmenters.size < 64) segmenters.set(lang, seg);
  return seg;
}

export const keyOf = (text: string, lang: string) =>
  PLAIN.test(text)
    ? text
    : lower(text.replace(WORD_INTERNAL, '').normalize('NFKC'), lang).replace(IGNORED, '');
export const baseOf = (key: string) =>
  PLAIN.test(key) ? key : key.normalize('NFD').replace(ACCENTS, '').normalize('NFC');

/** The words of a text, in order. */
export function dictationWords(text: string, lang: string): DictationToken[] {
  return wordsOf(text.normalize('NFC'), lang, Infinity).tokens;
}

/** Text segmented at once at most: a segmenter's time per word grows with the length of its text. */
const CHUNK = 256;
/**
 * Where a chunk may end: before a letter or digit that follows a space or a sentence's end (、。！？). The
 * spaces are listed, not `\s`, which takes in U+FEFF: a format character, that joins the words around it.
 */
const CHUNK_END =
  /[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u3001\u3002\uff01\uff1f](?=[\p{L}\p{N}])/gu;
/** What belongs to the character before it: a combining mark, a zero-width joiner, a variation selector. */
const JOINED = /^(?:\p{M}|\u200d|[\ufe00-\ufe0f]|\udb40[\udd00-\uddef])/u;
/** A chunk's length at most when nothing above is found (a text without spaces or full stops). */
const CHUNK_MAX = 1024;

/** Where the chunk of `text` that starts at `start` ends (see wordsOf). */
function chunkEnd(text: string, start: number): number {
  if (text.length - start <= CHUNK) return text.length;
  CHUNK_END.lastIndex = start + CHUNK;
  const found = CHUNK_END.exec(text);
  if (found && found.index < start + CHUNK_MAX) return found.index + found[0].length;
  let end = start + CHUNK_MAX;
  // Never before what belongs to the character before it, nor after a joiner (so a word's marks stay
  // with it), unless the whole chunk is such; never between the two halves of a surrogate pair.
  while (end > start + 1 && (JOINED.test(text.slice(end, end + 2)) || text[end - 1] === '\u200d')) end--;
  if (end === start + 1) end = start + CHUNK_MAX;
  if (end < text.length && /[\udc00-\udfff]/.test(text[end])) end++;
  return min(end, text.length);
}

/**
 * The first `limit` words of an NFC text and where the next word starts (null when none is left): a
 * long answer is read no further than the alignment needs. The text is read in chunks of about CHUNK
 * characters cut where a word always ends (UAX #29: nothing joins a letter or digit to a space or a full
 * stop before it, and a dictionary language's run of letters ends there too), so each chunk's words are
 * the whole text's; a text with no such place for CHUNK_MAX characters is cut there, whatever the words.
 * A word met again takes its key from the first (normalising is most of the cost of a word).
 */
export function wordsOf(
  normal: string,
  lang: string,
  limit: number,
): { tokens: DictationToken[]; restAt: number | null } {
  const seg = segmenter(lang);
  const tokens: DictationToken[] = [];
  const known = new Map<string, { key: string; base: string }>();
  const add = (segment: string, index: number): boolean => {
    let keys = known.get(segment);
    if (!keys) {
      const key = keyOf(segment, lang);
      keys = { key, base: key && baseOf(key) };
      known.set(segment, keys);
    }
    if (!keys.key) return true;
    if (tokens.length === limit) return false;
    tokens.push({ text: segment, key: keys.key, base: keys.base, start: index, end: index + segment.length });
    return true;
  };
  if (!seg) {
    for (const m of normal.matchAll(/[^\s\p{P}]+/gu))
      if (!add(m[0], m.index ?? 0)) return { tokens, restAt: m.index ?? 0 };
    return { tokens, restAt: null };
  }
  for (let start = 0; start < normal.length;) {
    const end = chunkEnd(normal, start);
    for (const part of seg.segment(normal.slice(start, end)))
      if (part.isWordLike && !add(part.segment, start + part.index))
        return { tokens, restAt: start + part.index };
    start = end;
  }
  return { tokens, restAt: null };
}
