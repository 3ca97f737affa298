import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { captureResponse, sendCaptured } from './capture-response';
import { PAGE_CACHE_CONTROL, sendCachedPage, type PageCache } from './page-cache';

/**
 * Routing also accepts other spellings of a path (percent-escapes, capitals, a trailing slash); each would
 * be a new cache entry, so only the one canonical spelling of our URLs is cached, and others are rendered
 * as usual.
 */
const CANONICAL_PATH = /^\/(?:[a-z0-9._-]+(?:\/[a-z0-9._-]+)*)?$/;

/**
 * What a route makes of its query string: the canonical query (its parameters checked, in one fixed
 * order, unknown ones dropped, defaults left out) and whether an answer to it may be kept; or null when a
 * value is invalid. A route without a rule ignores its query string, as every page did before filters.
 */
export type QueryRule = (query: Request['query']) => { canonical: string; cacheable: boolean } | null;

export interface CachedRouteOptions {
  /** The rule of the route at this path, if it reads its query. */
  rules?: (path: string) => QueryRule | undefined;
  /**
   * Pages redirect a query that is valid but not written canonically to its canonical URL (so that links
   * and crawlers converge on one), and answer an invalid one with `fallback` (the 404 page). The API
   * answers both itself: the canonical form only keys the cache, and the route's own check says 422.
   */
  pages?: boolean;
}

/** The query string as the client wrote it, without the `?`. */
function rawQuery(req: Request): string {
  const at = req.originalUrl.indexOf('?');
  return at === -1 ? '' : req.originalUrl.slice(at + 1);
}

/** Where a GET or HEAD of a canonical path stands with the cache. */
export type CacheKey =
  /** An invalid query: never a cache entry (the page's 404, the API's 422). */
  | { kind: 'invalid' }
  /** A page whose valid query is not written canonically: a redirect to `key`. */
  | { kind: 'redirect'; key: string }
  /**
   * `key` is what the cache keeps the answer under (or, for a search, what is rendered and not kept);
   * `exact` when the request's own query string is `key`'s (or the route ignores its query).
   */
  | { kind: 'render'; key: string; cacheable: boolean; exact: boolean };

/**
 * The cache key of a request, from its path, its raw query string and (only when the path's route has
 * a rule) its parsed query: the one computation shared by cachedRoute below and the fast path in front of
 * Express (cached-hits.ts). Only canonical paths come here (isCanonicalPath).
 */
export function cacheKey(
  path: string,
  raw: string,
  parsed: () => Request['query'],
  options: CachedRouteOptions,
): CacheKey {
  const rule = options.rules?.(path);
  if (!rule) return { kind: 'render', key: path, cacheable: true, exact: true };
  const query = rule(parsed());
  if (!query) return { kind: 'invalid' };
  const key = query.canonical ? `${path}?${query.canonical}` : path;
  const exact = raw === query.canonical;
  if (options.pages && !exact) return { kind: 'redirect', key };
  return { kind: 'render', key, cacheable: query.cacheable, exact };
}

export const isCanonicalPath = (path: string) => CANONICAL_PATH.test(path);

/**
 * Serves GET and HEAD requests from the cache, keyed by path and canonical query; on a miss, `render`
 * answers (once for concurrent misses) and a 200 is kept. `fallback` runs when `render` passes the request
 * on. An answer its rule says not to keep (a search) is rendered every time, with the canonical query.
 */
export function cachedRoute(
  cache: PageCache,
  render: (req: Request, res: Response, pass: () => void, next: NextFunction) => unknown,
  fallback: (req: Request, res: Response, next: NextFunction) => void,
  options: CachedRouteOptions = {},
): RequestHandler {
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isCanonicalPath(req.path)) {
      return void render(req, res, () => fallback(req, res, next), next);
    }
    const found = cacheKey(req.path, rawQuery(req), () => req.query, options);
    if (found.kind === 'invalid') {
      // Never a cache entry: the page's 404, or the API's own 422 naming the parameter.
      if (options.pages) return fallback(req, res, next);
      return void render(req, res, () => fallback(req, res, next), next);
    }
    const { key } = found;
    if (found.kind === 'redirect') {
      res.setHeader('Cache-Control', 'public, max-age=3600');
      return res.redirect(301, key);
    }
    // What the cache keeps must not depend on anything but the key, so the render sees only the key.
    req.url = key;
    if (!found.cacheable) {
      // The same freshness rule as a kept page's, which the render may still override.
      res.setHeader('Cache-Control', PAGE_CACHE_CONTROL);
      return void render(req, res, () => fallback(req, res, next), next);
    }
    const hit = cache.get(key);
    if (hit) return sendCachedPage(req, res, hit);
    // A HEAD is rendered as a GET: Express and Astro leave a HEAD's body out, and an empty page must not
    // be kept.
    const method = req.method;
    req.method = 'GET';
    cache
      .render(key, () => captureResponse(res, (pass) => render(req, res, pass, next)))
      .then(({ page, captured }) => {
        req.method = method;
        if (page) sendCachedPage(req, res, page);
        else if (captured) sendCaptured(res, captured);
        else if (captured === null) fallback(req, res, next);
        // A follower whose leader got nothing cacheable renders for itself.
        else render(req, res, () => fallback(req, res, next), next);
      })
      .catch(next);
  };
}
