import type { NextFunction, Request, Response } from 'express';

/** The names container platforms and Kubernetes probe by default, for the API's own health routes. */
const ALIASES: Record<string, string> = {
  '/healthz': '/api/v1/health',
  '/readyz': '/api/v1/health/ready',
};

/**
 * `/healthz` and `/readyz` answer exactly as `/api/v1/health` and `/api/v1/health/ready` (docs/deploy.md):
 * the request is routed to them, so there is one handler, one set of headers and one rate of each.
 */
export function healthAliases(req: Request, _res: Response, next: NextFunction): void {
  const query = req.url.indexOf('?');
  const path = query === -1 ? req.url : req.url.slice(0, query);
  const target = ALIASES[path];
  if (target) req.url = target + (query === -1 ? '' : req.url.slice(query));
  next();
}
