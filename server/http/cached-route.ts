import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { captureResponse, sendCaptured } from './capture-response';
import { sendCachedPage, type PageCache } from './page-cache';

/**
 * Routing also accepts other spellings of a path (percent-escapes, capitals, a trailing slash); each would
 * be a new cache entry, so only the one canonical spelling of our URLs is cached, and others are rendered
 * as usual.
 */
const CANONICAL_PATH = /^\/(?:[a-z0-9._-]+(?:\/[a-z0-9._-]+)*)?$/;

/**
 * Serves GET and HEAD requests from the cache, keyed by path alone; on a miss, `render` answers (once for
 * concurrent misses) and a 200 is kept. `fallback` runs when `render` passes the request on.
 */
export function cachedRoute(
  cache: PageCache,
  render: (req: Request, res: Response, pass: () => void, next: NextFunction) => unknown,
  fallback: (req: Request, res: Response, next: NextFunction) => void,
): RequestHandler {
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !CANONICAL_PATH.test(req.path)) {
      return void render(req, res, () => fallback(req, res, next), next);
    }
    const hit = cache.get(req.path);
    if (hit) return sendCachedPage(req, res, hit);
    // What the cache keeps must not depend on the query string, so the render never sees it. A HEAD is
    // rendered as a GET: Express and Astro leave a HEAD's body out, and an empty page must not be kept.
    const method = req.method;
    req.url = req.path;
    req.method = 'GET';
    cache
      .render(req.path, () => captureResponse(res, (pass) => render(req, res, pass, next)))
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
