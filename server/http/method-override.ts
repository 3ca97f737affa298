import type { NextFunction, Request, Response } from 'express';

const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);

/**
 * The original clients (docs/product.md section 7) update with `POST …?_method=put`, because browsers' multipart forms can only POST.
 * The request is routed as the method it names, so one handler serves both forms.
 */
export function methodOverride(req: Request, _res: Response, next: NextFunction): void {
  if (req.method === 'POST') {
    const requested = typeof req.query._method === 'string' ? req.query._method.toUpperCase() : '';
    if (OVERRIDABLE.has(requested)) req.method = requested;
  }
  next();
}
