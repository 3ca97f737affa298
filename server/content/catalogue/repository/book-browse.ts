import { In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { dateFromDb } from '../../../platform/database/db-dates';
import { Book, bookClipsSql } from '../entities/book.entity';
import type { BrowseFilter } from '../browse-query';
import { NO_LEVEL } from '../browse-query';
import { canonicalTag, languageKey, NO_LANGUAGE } from '../languages';
import { searchTerms, wordPrefixPattern, wordRange } from '../search-key';

export type Facet = 'language' | 'cefr' | 'difficulty';

/** Per facet, each value's count among the books that match every other filter ("Spanish (312)"). */
export type FacetCounts = Record<Facet, Record<string, number>>;

export interface BrowseOptions {
  /**
   * Whether to count the facets: three GROUP BYs a page, which a list that shows no filter (the OPDS
   * feeds) skips; its facets are then empty. A search counts them from rows it reads anyway.
   */
  facets?: boolean;
  /**
   * "Best for me" (docs/word-status.md): this member's books nearest to 95% of their running words known
   * come first, by their precomputed coverage (book_coverage); a book without one counts as 0%. Not with a
   * search.
   */
  coverageFor?: number;
}

/** The share of running words known that "Best for me" puts first: most known, with a few new ones. */
export const BEST_SHARE = 0.95;

export interface BrowsePage {
  books: Book[];
  total: number;
  facets: FacetCounts;
}

/**
 * One browse of the catalogue in five queries whatever its size (a search: two, see searchBooks): the page
 * of books, their total, and one GROUP BY per facet. Each facet is counted with the other filters applied
 * and not its own, so that its values say what choosing them would give. Plain SQL through the query
 * builder, the same on SQLite and PostgreSQL; docs/catalogue-plans.md shows the plans.
 */
export async function browseBooks(
  db: EntityManager,
  filter: BrowseFilter,
  { facets = true, coverageFor }: BrowseOptions = {},
): Promise<BrowsePage> {
  const terms = filter.q ? searchTerms(filter.q) : [];
  if (terms.length) return searchBooks(db, filter, terms);
  const matching = (except?: Facet) => where(db.createQueryBuilder(Book, 'b'), filter, terms, except);

  const page = matching();
  if (coverageFor !== undefined) {
    page
      // The row of the book's language: one kept from a language the book had before is not its coverage.
      .leftJoin(
        'book_coverage',
        'bc',
        "bc.book_id = b.id AND bc.user_id = :coverageFor AND (b.language = bc.lang OR b.language LIKE bc.lang || '-%')",
        { coverageFor },
      )
      .addSelect(
        `ABS(COALESCE(bc.known * 1.0 / NULLIF(bc.running, 0), 0) - ${BEST_SHARE})`,
        'coverage_distance',
      )
      .addOrderBy('coverage_distance', 'ASC')
      .addOrderBy('b.created_at', 'DESC');
  } else if (filter.sort === 'title') page.addOrderBy('b.title_key', 'ASC');
  else if (filter.sort === 'shortest') {
    // The length every page shows (content/catalogue/book-response.ts, bookLength): the clips' once there are any, else as typed.
    page
      .addSelect(
        `COALESCE(NULLIF((${bookClipsSql('b')}), 0), (b.hours * 60 + b.minutes) * 60000)`,
        'length_ms',
      )
      .addOrderBy('length_ms', 'ASC');
  } else page.addOrderBy('b.created_at', 'DESC');
  page.addOrderBy('b.id', filter.sort === 'newest' ? 'DESC' : 'ASC');

  const [books, total, language, cefr, difficulty] = await Promise.all([
    page
      .offset((filter.page - 1) * filter.perPage)
      .limit(filter.perPage)
      .getMany(),
    matching().getCount(),
    facets ? counts(matching('language'), 'b.language') : [],
    facets ? counts(matching('cefr'), 'b.cefr') : [],
    facets ? counts(matching('difficulty'), 'b.difficulty') : [],
  ]);
  return {
    books,
    total,
    facets: {
      language: merge(language, (value) => languageKey(value)),
      cefr: merge(cefr, (value) => value ?? NO_LEVEL),
      difficulty: merge(difficulty, (value) => value ?? 'none'),
    },
  };
}

/** What a search needs of each book it finds, to filter, count and order them without another scan. */
interface Found {
  id: number;
  language: string | null;
  cefr: string | null;
  difficulty: string;
  title_rank: number | string;
  sort_key: string | number | Date | null;
}

/**
 * A search in two queries: the books holding every word are found through book_words' index, one range of
 * it per word (matchingWords), with their id, filters and sort key only; the filters, the facets, the total
 * and the order are worked out from those rows; then the page's books are read by id. The five-query way
 * would find the matches five times. The rows kept are at most the matches, a few columns each.
 */
async function searchBooks(db: EntityManager, filter: BrowseFilter, terms: string[]): Promise<BrowsePage> {
  const found = db.createQueryBuilder(Book, 'b').select('b.id', 'id');
  where(found, { ...filter, lang: null, cefr: null, difficulty: null }, terms);
  matchingWords(found, terms);
  // Only the rows found are compared: a LIKE on title_key costs nothing per book of the catalogue.
  const inTitle = terms.map((_, i) => `b.title_key LIKE :title${i} ESCAPE '\\'`).join(' AND ');
  found
    .addSelect('b.language', 'language')
    .addSelect('b.cefr', 'cefr')
    .addSelect('b.difficulty', 'difficulty')
    .addSelect(`CASE WHEN ${inTitle} THEN 0 ELSE 1 END`, 'title_rank')
    .addSelect(
      filter.sort === 'title'
        ? 'b.title_key'
        : filter.sort === 'shortest'
          ? `COALESCE(NULLIF((${bookClipsSql('b')}), 0), (b.hours * 60 + b.minutes) * 60000)`
          : 'b.created_at',
      'sort_key',
    );
  const rows = await found.getRawMany<Found>();

  const passes = (row: Found, except?: Facet) =>
    (except === 'language' || !filter.lang || languageKey(row.language) === filter.lang) &&
    (except === 'cefr' || !filter.cefr || (row.cefr ?? NO_LEVEL) === filter.cefr) &&
    (except === 'difficulty' || !filter.difficulty || row.difficulty === filter.difficulty);
  const facets: FacetCounts = { language: {}, cefr: {}, difficulty: {} };
  const count = (facet: Facet, value: string) => (facets[facet][value] = (facets[facet][value] ?? 0) + 1);
  for (const row of rows) {
    if (passes(row, 'language')) count('language', languageKey(row.language));
    if (passes(row, 'cefr')) count('cefr', row.cefr ?? NO_LEVEL);
    if (passes(row, 'difficulty')) count('difficulty', row.difficulty ?? 'none');
  }

  // Title matches first (a book whose title holds every word, before one that only mentions them), then
  // the sort and the id, as the five-query way orders.
  const key = (row: Found) => {
    const value = row.sort_key;
    if (filter.sort === 'title') return String(value ?? '');
    if (filter.sort === 'shortest') return Number(value ?? 0);
    return value instanceof Date ? value.getTime() : dateFromDb(String(value)).getTime();
  };
  const direction = filter.sort === 'newest' ? -1 : 1;
  const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  const matched = rows
    .filter((row) => passes(row))
    .map((row) => ({ id: Number(row.id), rank: Number(row.title_rank), key: key(row) }))
    .sort((a, b) => a.rank - b.rank || direction * compare(a.key, b.key) || direction * (a.id - b.id));

  const ids = matched
    .slice((filter.page - 1) * filter.perPage, filter.page * filter.perPage)
    .map((m) => m.id);
  const books = ids.length ? await db.find(Book, { where: { id: In(ids) } }) : [];
  const byId = new Map(books.map((book) => [book.id, book]));
  return {
    books: ids.map((id) => byId.get(id)).filter((book): book is Book => book !== undefined),
    total: matched.length,
    facets,
  };
}

function where(
  qb: SelectQueryBuilder<Book>,
  filter: BrowseFilter,
  terms: string[],
  except?: Facet,
): SelectQueryBuilder<Book> {
  if (filter.lang && except !== 'language') {
    if (filter.lang === NO_LANGUAGE) qb.andWhere('b.language IS NULL');
    // Tags are kept in their canonical spelling (BooksRepository), so the index on language serves.
    else qb.andWhere('b.language = :lang', { lang: canonicalTag(filter.lang) ?? filter.lang });
  }
  if (filter.cefr && except !== 'cefr') {
    if (filter.cefr === NO_LEVEL) qb.andWhere('b.cefr IS NULL');
    else qb.andWhere('b.cefr = :cefr', { cefr: filter.cefr });
  }
  if (filter.difficulty && except !== 'difficulty')
    qb.andWhere('b.difficulty = :difficulty', { difficulty: filter.difficulty });
  // A search with no letter or digit in it (only "%", say) finds nothing, rather than everything.
  if (filter.q && !terms.length) qb.andWhere('1 = 0');
  return qb;
}

/**
 * Books holding a word that starts with each term: per term, the ids in one range of book_words' primary
 * key (word, book_id), `lo <= word < hi` (search-key.ts, wordRange), which both databases read as an index
 * range, byte by byte. Also sets `title<i>`, the term as a LIKE pattern for the title-first order.
 */
function matchingWords(qb: SelectQueryBuilder<Book>, terms: string[]): void {
  terms.forEach((term, i) => {
    const { lo, hi } = wordRange(term);
    qb.andWhere(`b.id IN (SELECT w.book_id FROM book_words w WHERE w.word >= :lo${i} AND w.word < :hi${i})`, {
      [`lo${i}`]: lo,
      [`hi${i}`]: hi,
      [`title${i}`]: wordPrefixPattern(lo),
    });
  });
}

async function counts(qb: SelectQueryBuilder<Book>, column: string) {
  return qb
    .select(column, 'value')
    .addSelect('COUNT(*)', 'count')
    .groupBy(column)
    .getRawMany<{ value: string | null; count: number | string }>();
}

/** Counts by URL word (two spellings of one tag, kept before tags were made canonical, count as one). */
function merge(
  rows: Array<{ value: string | null; count: number | string }>,
  key: (value: string | null) => string,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of rows) out[key(row.value)] = (out[key(row.value)] ?? 0) + Number(row.count);
  return out;
}
