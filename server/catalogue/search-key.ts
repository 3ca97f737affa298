/**
 * The catalogue's search, made portable: the application writes a normalised copy of each book's text
 * (lower case, accents removed, punctuation turned into spaces) into plain columns, and a search is a
 * LIKE on them, the same SQL on SQLite and PostgreSQL. `unaccent` and `pg_trgm` are extensions that may
 * not be installed, and FTS5's shadow tables would not travel through backups and `npm run migrate-to`.
 * docs/catalogue.md says more.
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
