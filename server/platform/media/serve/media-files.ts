import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { LocalMediaStore } from '../store/local-media-store';
import type { MediaStore } from '../store/media-store';
import { fittedRange, hasSuffixRange } from './byte-ranges';
import { keyOf, storeMediaHandler } from './store-media-handler';

const YEAR_SECONDS = 31_536_000;
export const IMMUTABLE = `public, max-age=${YEAR_SECONDS}, immutable`;

/**
 * The handler that serves /media files from a store. A folder keeps express.static (Range, ETag, 304s,
 * proven and tested); a bucket is streamed through this process with the same behaviour, so URLs, the
 * locked-clip gate, caching and the CSP stay as they are (docs/media-storage.md). `cacheControl` null sets
 * none: the clip gate sets its own before it hands over.
 */
export function mediaFiles(store: MediaStore, cacheControl: typeof IMMUTABLE | null): RequestHandler {
  if (store instanceof LocalMediaStore) {
    const files = { index: false, dotfiles: 'deny', redirect: false } as const;
    return withSuffixRanges(
      store,
      cacheControl
        ? express.static(store.root, { ...files, immutable: true, maxAge: YEAR_SECONDS * 1000 })
        : express.static(store.root, { ...files, cacheControl: false }),
    );
  }
  return storeMediaHandler(store, { cacheControl });
}

/**
 * express.static with a suffix range read as RFC 9110 reads it (byte-ranges.ts `fittedRange`): longer
 * than the file, the whole file as a 206, not a 416; of an empty file, the file as a 200. The file's size
 * is needed first, so a request with a suffix range (rare: players ask `bytes=0-` or `bytes=N-`) looks the
 * file up once more; any other goes straight through. The header is rewritten in place, as express.static
 * reads it itself. A lookup that fails leaves it as it was: express.static answers as it always did.
 */
function withSuffixRanges(store: MediaStore, serve: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const key = hasSuffixRange(req.headers.range) ? keyOf(req) : null;
    if (key === null) return void serve(req, res, next);
    store.head(key).then(
      (info) => {
        if (info) {
          const range = fittedRange(req.headers.range, info.size);
          if (range === undefined) delete req.headers.range;
          else req.headers.range = range;
        }
        void serve(req, res, next);
      },
      () => void serve(req, res, next),
    );
  };
}

/**
 * No file to serve under /media: the request goes on to the usual 404 (the site's page, or the API's
 * JSON), marked never to be cached (a file may appear a moment later, uploaded through another instance),
 * whatever a handler before set for the file it hoped to serve.
 */
export function mediaNotFound(_req: Request, res: Response, next: NextFunction): void {
  for (const header of ['Cache-Control', 'ETag', 'Last-Modified', 'Accept-Ranges']) res.removeHeader(header);
  res.setHeader('Cache-Control', 'no-store');
  next();
}
