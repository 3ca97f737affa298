/**
 * The catalogue's search, made portable: the application writes a normalised copy of each book's text
 * (lower case, accents removed, punctuation turned into spaces) into plain columns and its words into a
 * plain table (book_words), and a search reads a range of that table's index per word, the same SQL on
 * SQLite and PostgreSQL. `unaccent` and `pg_trgm` are extensions that may not be installed, and FTS5's
 * shadow tables would not travel through backups and `npm run migrate-to`. docs/catalogue.md says more.
 */

/** Letters that Unicode does not decompose into a base letter and an accent, written as a reader would type them. */
const FOLDED: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/**
 * A text as the search compares it: " word word … " (a space at each end, so that ` term` finds a word's
 * start anywhere, the first word included).
 */
export function searchKey(text: string): string {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßẞæœøłđðþı]/g, (letter) => FOLDED[letter]);
  const words = folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.length ? ` ${words.join(' ')} ` : '';
}

/** The words of a query, each to be found at the start of a word (at most 8 count). */
export function searchTerms(query: string): string[] {
  return [...new Set(searchKey(query).split(' ').filter(Boolean))].slice(0, 8);
}

/** A LIKE pattern that finds `term` at the start of a word, its `%` and `_` matching themselves. */
export function wordPrefixPattern(term: string): string {
  return `% ${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The longest word the search keeps, in characters (code points): a longer word is kept cut to its first
 * 64, and a query's word is cut alike, so it still finds the book by its start (book_words.word is
 * varchar(64)). Two words that differ only after their 64th character are the same word to the search.
 */
export const WORD_LENGTH = 64;

/** A word cut to WORD_LENGTH characters, counted in code points (never half of a surrogate pair). */
export function capWord(word: string): string {
  return word.length <= WORD_LENGTH ? word : [...word].slice(0, WORD_LENGTH).join('');
}

/** The distinct words of a text as the search keeps them (book_words): searchKey's words, each capped. */
export function searchWords(text: string): string[] {
  return [...new Set(searchKey(text).split(' ').filter(Boolean).map(capWord))];
}

/**
 * The kept words that start with `term`: `lo <= word < hi`, with hi the term followed by U+10FFFF, the
 * largest code point. Compared byte by byte (SQLite's BINARY, PostgreSQL's COLLATE "C"), UTF-8 keeps code
 * point order, so every word starting with the term sorts below hi, and a word never holds U+10FFFF itself
 * (it is no letter or digit, so searchKey splits there). A range of an index, on both databases.
 */
export function wordRange(term: string): { lo: string; hi: string } {
  const lo = capWord(term);
  return { lo, hi: `${lo}\u{10FFFF}` };
}
