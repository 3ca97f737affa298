import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Request } from 'express';
import type { LogFormat } from '../platform/config';
import { REQUEST_ID_HEADER, trackRequest, type TrustFn } from './request-context';
import { cacheKey, isCanonicalPath, type CachedRouteOptions } from './cached-route';
import { encodingFor, writeCachedPage, type PageCache } from './page-cache';
import { kindOf, type HeaderKind, type SecurityHeaderLists } from './security-headers';

export interface CachedHitsOptions {
  cache: PageCache;
  /** The guest API's query rules (create-app.ts), for paths under GUEST_API. */
  api: CachedRouteOptions;
  /** The pages' query rules (pages.ts), or null when no site is mounted. */
  pages: CachedRouteOptions | null;
  security: SecurityHeaderLists;
  logFormat: LogFormat;
  /** Express's compiled `trust proxy` (TRUST_PROXY), for the request id. */
  trustProxy: TrustFn;
  /** Express's compiled query parser, for the routes whose rule reads the query. */
  parseQuery: (query: string) => Request['query'];
}

export const GUEST_API = '/api/v1/guest/';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** A body on the way would need closeUnreadBodies' lingering close (body/unread-body.ts): Express's job. */
function hasBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * The compression middleware would deflate an identity answer for a client that accepts deflate (or
 * anything, `*`) but neither brotli nor gzip: such rare requests take the Express chain.
 */
const MAY_DEFLATE = /deflate|\*/i;

/**
 * The page cache's hits, answered before Express and Nest see the request. A hit through the whole chain
 * (eight middlewares, Express's router, the cached route) costs several times what handing out stored
 * bytes does; here it is a URL split, a map lookup and the same writes. Exactly what the chain would
 * answer, from the same pieces: the request id and log line (trackRequest), the security headers of the
 * path's kind (one list per kind, security-headers.ts), the cache key (cacheKey, the same rules and the
 * same canonical-path check) and the answer itself with its ETag, 304, HEAD and encoding (page-cache.ts's
 * cachedAnswer), all written in one writeHead.
 * It is as fresh as the chain's hits, since both read the one cache that catalogue changes clear.
 *
 * Anything else falls through to Express untouched: other methods, a body on the way, non-canonical
 * paths, queries a page would redirect or a rule refuses, searches (never kept), keys not in the cache,
 * and paths the chain answers before its cache (media, the API's other routes, static files and
 * sitemaps never have an entry, since only the cached routes fill the cache).
 */
export function cachedHits(
  options: CachedHitsOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { cache } = options;
  // Each kind's security headers as writeHead takes them (names and values in turn), made once.
  const security = Object.fromEntries(
    Object.entries(options.security).map(([kind, list]) => [kind, list.flat()]),
  ) as Record<HeaderKind, string[]>;
  const lookup = (req: IncomingMessage) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || cache.size === 0) return null;
    const url = req.url ?? '';
    const at = url.indexOf('?');
    const path = at === -1 ? url : url.slice(0, at);
    if (!isCanonicalPath(path)) return null;
    let route: CachedRouteOptions | null;
    if (path.startsWith(GUEST_API)) route = options.api;
    else if (path === '/api' || path.startsWith('/api/')) return null;
    else route = options.pages;
    const kind = kindOf(path);
    if (!route || kind === 'media' || kind === 'docs' || hasBody(req)) return null;
    const raw = at === -1 ? '' : url.slice(at + 1);
    const found = cacheKey(path, raw, () => options.parseQuery(raw), route);
    // Only a query written as the cache writes it: the chain redirects or re-spells the others.
    if (found.kind !== 'render' || !found.cacheable || !found.exact) return null;
    const page = cache.get(found.key);
    if (!page) return null;
    const acceptEncoding = req.headers['accept-encoding'];
    if (encodingFor(acceptEncoding) === 'identity' && acceptEncoding && MAY_DEFLATE.test(acceptEncoding))
      return null;
    return { page, kind };
  };
  return (req, res) => {
    let hit: ReturnType<typeof lookup>;
    try {
      hit = lookup(req);
    } catch {
      // A query the parser chokes on: the chain meets the same error and answers it as usual.
      return false;
    }
    if (!hit) return false;
    const id = trackRequest(options.logFormat, req, res, options.trustProxy);
    writeCachedPage(req, res, hit.page, [REQUEST_ID_HEADER, id, ...security[hit.kind]]);
    return true;
  };
}

/**
 * Puts `hit` in front of the server's request listener (the Express application Nest created): a request
 * it does not answer goes on to Express as before.
 */
export function serveCachedHitsFirst(
  server: Server,
  hit: (req: IncomingMessage, res: ServerResponse) => boolean,
): void {
  const listeners = server.listeners('request') as Listener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (hit(req, res)) return;
    for (const listener of listeners) listener.call(server, req, res);
  });
}
