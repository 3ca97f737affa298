import { createHash } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** A rendered page, kept with its compressed forms so that a hit costs no rendering and no compression. */
export interface CachedPage {
  status: number;
  contentType: string;
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

export interface CapturedResponse {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** Browsers may keep a page but must ask whether it changed (a 304 costs a few bytes). */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

function header(headers: OutgoingHttpHeaders, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key ? headers[key] : undefined;
  return value === undefined ? undefined : String(value);
}

export function toCachedPage(captured: CapturedResponse): CachedPage {
  const { body } = captured;
  return {
    status: captured.status,
    contentType: header(captured.headers, 'content-type') ?? 'text/html; charset=utf-8',
    etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
    identity: body,
    gzip: gzipSync(body, { level: 9 }),
    br: brotliCompressSync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  };
}

/** An answer that depends on who asked (a locked chapter, read with a token) says so, and is never kept. */
function isPrivate(captured: CapturedResponse): boolean {
  return /\b(private|no-store)\b/i.test(header(captured.headers, 'cache-control') ?? '');
}

/** Picks the best encoding the client accepts: brotli, then gzip, then none. */
function encodingFor(req: Request): 'br' | 'gzip' | 'identity' {
  const accepted = req.acceptsEncodings('br', 'gzip', 'identity');
  return accepted === 'br' || accepted === 'gzip' ? accepted : 'identity';
}

export function sendCachedPage(req: Request, res: Response, page: CachedPage): void {
  res.setHeader('Cache-Control', PAGE_CACHE_CONTROL);
  res.setHeader('ETag', page.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  const encoding = encodingFor(req);
  const body = page[encoding];
  res.status(page.status);
  res.setHeader('Content-Type', page.contentType);
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', String(body.length));
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Public pages rendered once and kept in memory, keyed by path alone, so a query string can neither
 * bypass the cache nor fill it. The catalogue's change events clear it before an admin call returns;
 * a render that overlapped a change is not kept.
 */
export class PageCache {
  private readonly pages = new Map<string, CachedPage>();
  private readonly inFlight = new Map<
    string,
    Promise<{ page: CachedPage | null; captured: CapturedResponse | null }>
  >();
  private generation = 0;

  get(path: string): CachedPage | undefined {
    return this.pages.get(path);
  }

  /**
   * Renders a page once for concurrent requests of one path. The leader gets what its render produced
   * (to send even when it is not cacheable, e.g. a 404); followers get only the cached page, or null.
   */
  async render(
    path: string,
    renderer: () => Promise<CapturedResponse | null>,
  ): Promise<{ page: CachedPage | null; captured?: CapturedResponse | null }> {
    // clear() empties inFlight, so a render that started before a change is never joined after it.
    const pending = this.inFlight.get(path);
    if (pending) return { page: await pending.then((r) => r.page) };
    const generation = this.generation;
    const work = renderer().then((captured) => ({
      captured,
      page: captured && captured.status === 200 && !isPrivate(captured) ? toCachedPage(captured) : null,
    }));
    this.inFlight.set(path, work);
    try {
      const result = await work;
      if (result.page && generation === this.generation) this.pages.set(path, result.page);
      return result;
    } finally {
      if (this.inFlight.get(path) === work) this.inFlight.delete(path);
    }
  }

  clear(): void {
    this.generation++;
    this.pages.clear();
    this.inFlight.clear();
  }

  get size(): number {
    return this.pages.size;
  }
}
