import type { NextFunction, Request, Response } from 'express';

/**
 * Pages may run scripts from our own origin and the inline scripts we ship, named by hash (see
 * server/http/script-hashes.ts): no 'unsafe-inline' and no nonces, since pages are cached and shared.
 * Inline styles stay allowed (island wrappers, React's style attributes); they cannot run code.
 */
function pagePolicy(scriptHashes: string[]): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "media-src 'self'",
    "connect-src 'self'",
    "font-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** API responses are data only and get the strictest policy. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export function securityHeaders(scriptHashes: string[]) {
  const pageCsp = pagePolicy(scriptHashes);
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Content-Security-Policy', req.path.startsWith('/api/') ? API_CSP : pageCsp);
    next();
  };
}

export function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
