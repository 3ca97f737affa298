import { Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isSafeKey, type MediaStore } from '../store/media-store';
import { sendStored, type SendOptions } from './send-stored';

const logger = new Logger('MediaStore');

export const STORE_DOWN_MESSAGE = 'Media storage is unavailable right now. Please try again shortly.';

/** The key a /media request names, decoded as express.static decodes it, or null when it is not one. */
export function keyOf(req: Request): string | null {
  try {
    const key = decodeURIComponent(req.path).replace(/^\/+/, '');
    return isSafeKey(key) ? key : null;
  } catch {
    return null;
  }
}

/**
 * /media from a store that is not a folder: express.static's behaviour (see sendStored) with its
 * fall-through, so a missing object, another method or a path that is no key (dotfiles, `..`) goes on to
 * the next handler and ends as the usual 404. A store that fails is logged and answered 503 `{ message }`.
 */
export function storeMediaHandler(store: MediaStore, options: SendOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const key = keyOf(req);
    if (key === null) return next();
    sendStored(req, res, store, key, options).then(
      (sent) => {
        if (!sent) next();
      },
      (error: unknown) => {
        logger.error(`GET /media/${key} failed: ${error instanceof Error ? error.message : String(error)}`);
        if (res.headersSent) return void res.destroy();
        res.removeHeader('Cache-Control');
        res.removeHeader('ETag');
        res.removeHeader('Last-Modified');
        res.removeHeader('Accept-Ranges');
        res.status(503).setHeader('Retry-After', '30');
        res.setHeader('Cache-Control', 'no-store');
        res.json({ message: STORE_DOWN_MESSAGE });
      },
    );
  };
}
