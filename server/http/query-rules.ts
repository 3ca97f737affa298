import { parseBrowseQuery } from '../catalogue/browse-query';
import type { CachedRouteOptions, QueryRule } from './cached-route';

/**
 * The cached routes that read their query string, each with the rule that checks it and spells it one
 * way (cached-route.ts). Every other cached page and guest answer ignores its query string.
 */
function browseRule(perPage: boolean): QueryRule {
  return (query) => {
    const parsed = parseBrowseQuery(query, { perPage });
    // A search is not kept: random words would fill the cache and push the catalogue's pages out.
    return parsed.ok ? { canonical: parsed.canonical, cacheable: parsed.filter.q === null } : null;
  };
}

const PAGE_RULES = new Map<string, QueryRule>([['/books', browseRule(false)]]);
const API_RULES = new Map<string, QueryRule>([['/api/v1/guest/books', browseRule(true)]]);

export const pageQueryRule = (path: string) => PAGE_RULES.get(path);
export const apiQueryRule = (path: string) => API_RULES.get(path);

/** How the pages' cached route (pages.ts) and the guest API's (create-app.ts) read a query. */
export const PAGE_ROUTES: CachedRouteOptions = { rules: pageQueryRule, pages: true };
export const API_ROUTES: CachedRouteOptions = { rules: apiQueryRule };
