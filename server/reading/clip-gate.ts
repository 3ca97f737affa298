import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { posix } from 'node:path';
import type { ClipUrls } from './clip-urls';
import type { LockedClips } from './locked-clips';

/** The file a /media request names, spelled the one way the locked set spells it, or null. */
function mediaPath(req: Request): string | null {
  try {
    // express.static decodes and normalises before it opens a file, so the check must too.
    return posix.normalize(decodeURIComponent(req.path)).replace(/^\/+/, '');
  } catch {
    return null;
  }
}

/**
 * Mounted on /media before the files: a clip of a locked chapter is served only with a live signature,
 * privately (never to a shared cache), still with Range; a free chapter's clip publicly, for a day.
 * Covers and samples go on to the public, immutable serving. `serveLocked` is an express.static that
 * sets no Cache-Control of its own.
 */
export function clipGate(locked: LockedClips, urls: ClipUrls, serveLocked: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const path = mediaPath(req);
    if (path === null) return void res.status(400).type('text/plain').send('Bad media path.');
    if (!locked.has(path)) {
      // A free chapter's clip may become locked (a chapter added before it): caches keep it a day, not a year.
      if (!path.startsWith('lines/')) return next();
      res.setHeader('Cache-Control', 'public, max-age=86400');
      return serveLocked(req, res, next);
    }
    if (!urls.verify(path, req.query.exp, req.query.sig)) {
      res.setHeader('Cache-Control', 'no-store');
      return void res
        .status(403)
        .type('text/plain')
        .send('This clip needs a fresh link: reload its chapter.');
    }
    res.setHeader('Cache-Control', 'private, max-age=3600');
    serveLocked(req, res, next);
  };
}
