import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { MEDIA_ROUTE } from '../platform/media/media-urls';

type Directives = Record<string, string[]>;

/**
 * Pages may run scripts from our own origin and the inline scripts we ship, named by hash (see
 * server/http/script-hashes.ts): no 'unsafe-inline' and no nonces, since pages are cached and shared.
 * Inline styles stay allowed (island wrappers, React's style attributes); they cannot run code.
 */
function pagePolicy(scriptHashes: string[]): Directives {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scriptHashes],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'media-src': ["'self'"],
    'connect-src': ["'self'"],
    // The service worker (/sw.js, docs/offline.md); nothing else runs as a worker.
    'worker-src': ["'self'"],
    'font-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
  };
}

/** API responses are data only and get the strictest policy. */
const API_POLICY: Directives = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] };

/**
 * The API's reference page (Swagger UI at /api/docs) loads its script, stylesheet and the OpenAPI
 * document from our origin; its HTML has an inline <style> and its stylesheet inline data: images.
 */
const DOCS_POLICY: Directives = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** 180 days; see docs/security.md for why subdomains are left to the operator. */
const HSTS_MAX_AGE = 15_552_000;

export type HeaderKind = 'page' | 'media' | 'api' | 'docs';

/** Header names and values, in the order they are set. */
export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

/** The security headers of each kind of answer, computed once at boot. */
export type SecurityHeaderLists = Readonly<Record<HeaderKind, HeaderList>>;

/** Express routes case-insensitively, so the kinds are told apart the same way. */
export function kindOf(path: string): HeaderKind {
  const lower = path.toLowerCase();
  if (lower === '/api/docs' || lower.startsWith('/api/docs/')) return 'docs';
  if (lower.startsWith('/api/')) return 'api';
  if (lower.startsWith(`${MEDIA_ROUTE}/`)) return 'media';
  return 'page';
}

/**
 * The headers a helmet middleware sets. Ours depend on nothing in the request (no per-request nonce: pages
 * are cached and shared), so running it once against a recorder gives the list every answer gets.
 */
function recorded(middleware: ReturnType<typeof helmet>): HeaderList {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: string) => void headers.push([name, String(value)]),
    // helmet drops X-Powered-By, which Express never sends here (create-app.ts disables it).
    removeHeader: () => undefined,
  };
  let done = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error as Error;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * Every answer's security headers, through helmet, one list per kind of answer: the one source for the
 * Express chain (securityHeaders below) and for the page cache's fast path (cached-hits.ts). Each of
 * helmet's defaults that differs from ours is overridden here (its CSP adds upgrade-insecure-requests,
 * which breaks plain-HTTP installs; its Referrer-Policy is no-referrer, its X-Frame-Options SAMEORIGIN,
 * its HSTS unconditional). The exact list of headers sent is in docs/security.md.
 */
export function securityHeaderLists(scriptHashes: string[], publicUrl: string): SecurityHeaderLists {
  const pageDirectives = pagePolicy(scriptHashes);
  const https = publicUrl.startsWith('https://');
  const forKind = (directives: Directives, resourcePolicy: 'same-origin' | 'cross-origin') =>
    recorded(
      helmet({
        contentSecurityPolicy: { useDefaults: false, directives },
        // Media may be served from a CDN's hostname and embedded by our pages; nothing else is meant to be
        // loaded by another site.
        crossOriginResourcePolicy: { policy: resourcePolicy },
        crossOriginOpenerPolicy: { policy: 'same-origin' },
        crossOriginEmbedderPolicy: false,
        referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
        xFrameOptions: { action: 'deny' },
        // A browser ignores HSTS over plain HTTP, but a plain-HTTP install behind nothing must not claim it.
        strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE, includeSubDomains: false } : false,
        // Kept from helmet's defaults: X-Content-Type-Options nosniff, X-XSS-Protection 0 (turns off old
        // browsers' faulty filter), X-Permitted-Cross-Domain-Policies none, Origin-Agent-Cluster ?1.
        // Dropped: DNS prefetching is a performance choice, not ours to switch off; noopen is for IE 8.
        xDnsPrefetchControl: false,
        xDownloadOptions: false,
      }),
    );
  return {
    page: forKind(pageDirectives, 'same-origin'),
    media: forKind(pageDirectives, 'cross-origin'),
    api: forKind(API_POLICY, 'same-origin'),
    docs: forKind(DOCS_POLICY, 'same-origin'),
  };
}

export function setHeaders(res: ServerResponse, headers: HeaderList): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}

/** Sets the security headers of the request's kind on every answer that goes through Express. */
export function securityHeaders(lists: SecurityHeaderLists) {
  return (req: Request, res: Response, next: NextFunction): void => {
    setHeaders(res, lists[kindOf(req.path)]);
    next();
  };
}

export function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
