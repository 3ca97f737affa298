import { ApiProperty } from '@nestjs/swagger';
import { ValidationFailed } from '../../platform/common/api-error';
import { parseBrowseQuery, type BrowseFilter } from '../../content/catalogue/browse-query';
import { BookBrowseMeta } from '../../content/catalogue/catalogue.service';
import { BookResponse } from '../../content/catalogue/book-response';

/**
 * GET admin/book's page when `per_page` is not given: more than the public catalogue's 24, since the Book
 * List is a working table, and bounded, so that the call costs the same at 10,000 books as at 10.
 */
export const ADMIN_PAGE_SIZE = 50;

/**
 * The Book List's parameters: the public catalogue's (lang, cefr, difficulty, q, sort, page, per_page),
 * read by the same parser, so the same values are accepted and the same 422s answered. Only the default
 * page size differs.
 */
export function bookListFilter(query: Record<string, unknown>): BrowseFilter {
  const parsed = parseBrowseQuery(query, { perPage: true });
  if (!parsed.ok) throw new ValidationFailed(parsed.errors);
  return query.per_page === undefined ? { ...parsed.filter, perPage: ADMIN_PAGE_SIZE } : parsed.filter;
}

/** Whether the list was narrowed by a filter or a search (paging and sorting do not narrow it). */
export function isNarrowed(filter: BrowseFilter): boolean {
  return Boolean(filter.lang || filter.cefr || filter.difficulty || filter.q);
}

/** GET admin/book: the original `{ data }`, a page of it, and `meta` beside it (old clients ignore it). */
export class BookListAnswer {
  @ApiProperty({ type: [BookResponse], description: 'One page of books, newest first unless `sort` says.' })
  data: BookResponse[];

  @ApiProperty({
    type: BookBrowseMeta,
    description: 'The total, this page, and the facet counts of GET guest/books.',
  })
  meta: BookBrowseMeta;
}
