/**
 * The Book List's state, kept in its URL (`/admin/books?lang=es&q=gato&page=2`), so that a reload, a shared
 * link and the Back button show the same list. The parameters are GET admin/book's (docs/api.md), sent to
 * it as they are: the server checks them and names a bad one.
 */
export const LIST_PARAMS = ['lang', 'cefr', 'difficulty', 'q', 'sort', 'page', 'per_page'] as const;
export type ListParam = (typeof LIST_PARAMS)[number];
export type ListQuery = Record<ListParam, string>;

/** Filters and search narrow the list; sort and pages only arrange it. */
export const NARROWING: readonly ListParam[] = ['lang', 'cefr', 'difficulty', 'q'];

export function readListQuery(search: string): ListQuery {
  const url = new URLSearchParams(search);
  return Object.fromEntries(LIST_PARAMS.map((param) => [param, url.get(param) ?? ''])) as ListQuery;
}

/**
 * The query string in the API's fixed order, without empty values and defaults, so that the plain list is
 * `/admin/books` and asks `GET admin/book` as it always did.
 */
export function listQueryString(query: ListQuery): string {
  const out = new URLSearchParams();
  for (const param of LIST_PARAMS) {
    const value = param === 'q' ? query.q.replace(/\s+/g, ' ').trim() : query[param];
    if (!value || (param === 'sort' && value === 'newest') || (param === 'page' && value === '1')) continue;
    out.set(param, value);
  }
  return out.toString();
}
