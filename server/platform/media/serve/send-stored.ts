import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { requestedRange } from './byte-ranges';
import {
  contentTypeOf,
  ObjectNotFoundError,
  type ByteRange,
  type MediaStore,
  type ObjectInfo,
} from '../store/media-store';

export interface SendOptions {
  /** Set unless the response has one already (as express.static's `maxAge` does); null sets none. */
  cacheControl: string | null;
  contentType?: string;
}

/** Whether a Range may be honoured: no If-Range, or one that still names this version. */
function ifRangeHolds(req: Request, info: ObjectInfo): boolean {
  const ifRange = req.get('if-range');
  if (!ifRange) return true;
  if (ifRange.includes('"')) return ifRange === info.etag;
  const date = Date.parse(ifRange);
  return Number.isFinite(date) && Math.floor(info.lastModified.getTime() / 1000) <= Math.floor(date / 1000);
}

/**
 * Sends one stored object the way express.static sends a file (send's rules): GET and HEAD, ETag and
 * Last-Modified with 304s, one byte range (206, or 416 with `bytes *\/size`; byte-ranges.ts), ranges
 * still apart once merged or a bad header answered whole. Resolves false, with nothing sent, when the object does not exist; a store that
 * fails before the headers throws (StoreUnavailableError), after them the response is cut off.
 */
export async function sendStored(
  req: Request,
  res: Response,
  store: MediaStore,
  key: string,
  options: SendOptions,
): Promise<boolean> {
  const info = await store.head(key);
  if (!info) return false;
  res.setHeader('Accept-Ranges', 'bytes');
  const setCaching = options.cacheControl !== null && !res.getHeader('Cache-Control');
  if (setCaching) res.setHeader('Cache-Control', options.cacheControl!);
  res.setHeader('Last-Modified', info.lastModified.toUTCString());
  res.setHeader('ETag', info.etag);
  res.setHeader('Content-Type', options.contentType ?? contentTypeOf(key));
  // Express's req.fresh weighs If-None-Match and If-Modified-Since against the headers just set.
  if (req.fresh) {
    for (const header of ['Content-Type', 'Content-Length']) res.removeHeader(header);
    res.status(304).end();
    return true;
  }
  let range: ByteRange | undefined;
  if (req.headers.range && ifRangeHolds(req, info)) {
    const asked = requestedRange(req, info.size);
    if (asked === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${info.size}`);
      // A refusal of this client's Range, not the file: nobody keeps it.
      for (const header of ['Content-Type', 'ETag', 'Last-Modified']) res.removeHeader(header);
      res.setHeader('Cache-Control', 'no-store');
      res.status(416).end();
      return true;
    }
    if (asked) {
      range = asked;
      res.status(206).setHeader('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
    }
  }
  const length = range ? range.end - range.start + 1 : info.size;
  res.setHeader('Content-Length', String(length));
  if (req.method === 'HEAD' || length === 0) {
    res.end();
    return true;
  }
  let body;
  try {
    body = await store.read(key, range);
  } catch (error) {
    // Deleted between the look and the read: as if it had never been there.
    if (error instanceof ObjectNotFoundError) {
      const sent = [
        'Accept-Ranges',
        'Last-Modified',
        'ETag',
        'Content-Type',
        'Content-Length',
        'Content-Range',
      ];
      for (const header of setCaching ? [...sent, 'Cache-Control'] : sent) res.removeHeader(header);
      res.status(200);
      return false;
    }
    throw error;
  }
  // A body cut short (the store or the client went away) ends with a destroyed socket, never a short 200.
  await pipeline(body, res).catch(() => res.destroy());
  return true;
}
