import type { NextFunction, Request, Response } from 'express';
import { htmlErrorsFor } from './navigation';

/**
 * Every answer of the download routes depends on who asks, errors included (a 401 before any guard of
 * ours has run), so it is set before routing, on the path (http/create-app.ts). A Nest middleware bound
 * to the controller would be registered as Express routes of their own.
 */
export function privateNoStore(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'private, no-store');
  // Likewise a browser's navigation gets its errors as a page (navigation.ts), whoever raised them.
  htmlErrorsFor(req, res);
  next();
}
