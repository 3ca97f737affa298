import { CEFR_LEVELS, DIFFICULTIES, type CefrLevel, type Difficulty } from './book-levels';
import { canonicalTag, NO_LANGUAGE } from './languages';

/**
 * The catalogue's browse parameters (`/books?…` and `GET guest/books?…`), read in one place: the page
 * cache normalises a request's query with it before looking up or keeping an answer, and the page and the
 * API read the same normalised values. docs/catalogue.md lists the rules.
 */

export const SORTS = ['newest', 'title', 'shortest'] as const;
export type BookSort = (typeof SORTS)[number];

/** Search text longer than this is refused: no title or author needs more. */
export const MAX_QUERY_LENGTH = 200;
export const PAGE_SIZE = 24;
export const MAX_PER_PAGE = 100;
/** Pages past this are refused: 24 × 10,000 books is far beyond any catalogue, and OFFSET grows with it. */
const MAX_PAGE = 10_000;

export interface BrowseFilter {
  /** A language key: a tag in lower case ("pt-pt"), or "none" for books without a language. */
  lang: string | null;
  /** "none" for books without a level. */
  cefr: CefrLevel | typeof NO_LEVEL | null;
  difficulty: Difficulty | null;
  q: string | null;
  sort: BookSort;
  page: number;
  perPage: number;
}

/** The facet value, and the URL word, of books without a CEFR level. */
export const NO_LEVEL = 'none';

/** Parameters in the order their canonical URL writes them. */
const ORDER = ['lang', 'cefr', 'difficulty', 'q', 'sort', 'page', 'per_page'] as const;
type Param = (typeof ORDER)[number];

export type BrowseParse =
  | { ok: true; filter: BrowseFilter; canonical: string }
  | { ok: false; errors: Partial<Record<Param, string[]>> };

/** Text with a NUL or half of a surrogate pair cannot be stored or compared: refused, not cleaned. */
const UNSAFE_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function integer(value: string, min: number, max: number): number | null {
  if (!/^[1-9]\d{0,5}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

/**
 * Reads a request's query: unknown parameters are dropped, known ones checked. `canonical` is the query
 * string that means the same, in one fixed order and spelling, without defaults (empty for the default
 * view). `perPage` is a parameter of the API only: the pages always show 24.
 */
export function parseBrowseQuery(query: Record<string, unknown>, options: { perPage: boolean }): BrowseParse {
  const errors: Partial<Record<Param, string[]>> = {};
  const fail = (param: Param, message: string) => void (errors[param] = [message]);
  const read = (param: Param): string | null => {
    const value = query[param];
    if (value === undefined) return null;
    if (typeof value !== 'string') return (void fail(param, `Give ${param} once, as text.`), null);
    return value;
  };
  const filter: BrowseFilter = {
    lang: null,
    cefr: null,
    difficulty: null,
    q: null,
    sort: 'newest',
    page: 1,
    perPage: PAGE_SIZE,
  };

  const lang = read('lang');
  if (lang !== null && lang !== '') {
    const lower = lang.toLowerCase();
    if (lower === NO_LANGUAGE) filter.lang = NO_LANGUAGE;
    else if (/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/.test(lower) && canonicalTag(lower))
      filter.lang = canonicalTag(lower)!.toLowerCase();
    else fail('lang', 'The language must be a language code such as es or pt-pt, or none.');
  }

  const cefr = read('cefr');
  if (cefr !== null && cefr !== '') {
    const upper = cefr.toUpperCase();
    if (upper === NO_LEVEL.toUpperCase()) filter.cefr = NO_LEVEL;
    else if ((CEFR_LEVELS as readonly string[]).includes(upper)) filter.cefr = upper as CefrLevel;
    else fail('cefr', 'The level must be one of A1, A2, B1, B2, C1, C2, or none.');
  }

  const difficulty = read('difficulty');
  if (difficulty !== null && difficulty !== '') {
    const found = DIFFICULTIES.find((d) => d.toLowerCase() === difficulty.toLowerCase());
    if (found) filter.difficulty = found;
    else fail('difficulty', 'The difficulty must be Easy, Medium or Hard.');
  }

  const q = read('q');
  if (q !== null) {
    const text = q.replace(/\s+/g, ' ').trim();
    if (UNSAFE_TEXT.test(q)) fail('q', 'The search text contains characters that cannot be searched for.');
    else if (text.length > MAX_QUERY_LENGTH)
      fail('q', `The search text must not be longer than ${MAX_QUERY_LENGTH} characters.`);
    else if (text) filter.q = text;
  }

  const sort = read('sort');
  if (sort !== null && sort !== '') {
    if ((SORTS as readonly string[]).includes(sort)) filter.sort = sort as BookSort;
    else fail('sort', 'The sort must be newest, title or shortest.');
  }

  const page = read('page');
  if (page !== null && page !== '') {
    const n = integer(page, 1, MAX_PAGE);
    if (n === null) fail('page', `The page must be a whole number from 1 to ${MAX_PAGE}.`);
    else filter.page = n;
  }

  if (options.perPage) {
    const perPage = read('per_page');
    if (perPage !== null && perPage !== '') {
      const n = integer(perPage, 1, MAX_PER_PAGE);
      if (n === null) fail('per_page', `per_page must be a whole number from 1 to ${MAX_PER_PAGE}.`);
      else filter.perPage = n;
    }
  }

  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, filter, canonical: browseQueryString(filter, options) };
}

/** The canonical query string of a filter, without its defaults: what links and the cache key use. */
export function browseQueryString(filter: Partial<BrowseFilter>, options = { perPage: false }): string {
  const params = new URLSearchParams();
  const values: Record<Param, string | null> = {
    lang: filter.lang ?? null,
    cefr: filter.cefr ?? null,
    difficulty: filter.difficulty ?? null,
    q: filter.q ?? null,
    sort: filter.sort && filter.sort !== 'newest' ? filter.sort : null,
    page: filter.page && filter.page > 1 ? String(filter.page) : null,
    per_page:
      options.perPage && filter.perPage && filter.perPage !== PAGE_SIZE ? String(filter.perPage) : null,
  };
  for (const param of ORDER) if (values[param] !== null) params.set(param, values[param]);
  return params.toString();
}
