import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { posix } from 'node:path';
import { mediaNotFound } from '../../platform/media/serve/media-files';
import { isSafeKey, type MediaStore } from '../../platform/media/store/media-store';
import type { SignedLinks } from '../../platform/common/signed-links';
import type { MediaIndex } from './media-index';

/** The file a /media request names, spelled the one way the index spells it, or null. */
function mediaPath(req: Request): string | null {
  try {
    // express.static decodes and normalises before it opens a file, so the check must too.
    return posix.normalize(decodeURIComponent(req.path)).replace(/^\/+/, '');
  } catch {
    return null;
  }
}

function withoutFileHeaders(res: Response): void {
  for (const header of ['Cache-Control', 'ETag', 'Last-Modified', 'Content-Type', 'Accept-Ranges'])
    res.removeHeader(header);
  res.setHeader('Cache-Control', 'no-store');
}

function needsFreshLink(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.status(403).type('text/plain').send('This clip needs a fresh link: reload its chapter.');
}

/** The file handlers behind the gate: they set no Cache-Control of their own for clips, and a year's for others. */
export interface MediaHandlers {
  /** An express.static (or the bucket's handler) that sets no Cache-Control: the gate sets it. */
  clips: RequestHandler;
  /** Covers and samples: public and immutable, as their names are random and never reused. */
  others: RequestHandler;
}

/**
 * /media. A file let go of by a delete or a replace is a 404 at once, whatever the request carries. A clip
 * (`lines/…`) is served without a signature only when the index knows it is a free chapter's: publicly, for
 * a day. Any other clip (a locked chapter's, one the index has not classified, or any clip while the index
 * cannot tell) needs a live signature, and is then served `private, no-store` (kept by no cache), still
 * with Range. A refusal is a 403 only for a file that exists: a missing one is a 404 either way. Covers and
 * samples are public and immutable. Every 404 goes on to the usual not-found answer, uncached.
 */
export function clipGate(
  index: MediaIndex,
  links: SignedLinks,
  store: MediaStore,
  files: MediaHandlers,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const path = mediaPath(req);
    if (path === null) return void res.status(400).type('text/plain').send('Bad media path.');
    const notFound = () => mediaNotFound(req, res, next);
    // After a file handler: nothing there is a 404; its own error (a Range beyond the file's end: 416, a
    // failed If-Match: 412) stays, but without the file's caching and type: a shared cache must not keep
    // one client's refusal for everyone as if it were the file.
    const afterFiles = (error?: unknown) => {
      if (!error) return notFound();
      if (!res.headersSent) withoutFileHeaders(res);
      next(error);
    };
    // Deleted or replaced: the file stays an hour for backups, but is gone for readers at once.
    if (index.isWithdrawn(path)) return notFound();
    if (!path.startsWith('lines/')) return files.others(req, res, afterFiles);
    // A free chapter's clip may become locked (a chapter added before it): caches keep it a day, not a year.
    if (index.clip(path) === 'free') {
      res.setHeader('Cache-Control', 'public, max-age=86400');
      return files.clips(req, res, afterFiles);
    }
    if (links.verify('clip', path, req.query.exp, req.query.sig)) {
      // Paid audio: kept by no cache, the browser's own included, so none of it is left on the device
      // after its member signs out. Offline copies are the service worker's, in Cache Storage, which it
      // deletes on sign-out (docs/offline.md "Access stays enforced").
      res.setHeader('Cache-Control', 'private, no-store');
      return files.clips(req, res, afterFiles);
    }
    if (!isSafeKey(path)) return notFound();
    // A locked chapter's clip, named by a row: refused at once, without a call to the store per request.
    if (index.clip(path) === 'locked') return needsFreshLink(res);
    store.head(path).then(
      (found) => (found ? needsFreshLink(res) : notFound()),
      // The store cannot say: refused, as the gate cannot tell either.
      () => needsFreshLink(res),
    );
  };
}
