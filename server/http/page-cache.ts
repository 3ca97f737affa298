import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import express from 'express';

/**
 * A rendered page, kept with its compressed forms so that a hit costs no rendering and no compression.
 * The three forms sit one after the other in one allocation of their own, exactly as large as their bytes
 * (`bodies`), and each is a view made when asked for: one Buffer and two offsets an entry, rather than
 * three Buffers with their ArrayBuffers, backing stores and malloc chunks. Small buffers would otherwise
 * share 8 KB pools, and a compressor's result keeps its whole 16 KB work buffer alive: kept for long, a
 * 700-byte answer would hold 17 KB. Every object kept on the JavaScript heap also costs about twice its
 * size in resident memory, the room the garbage collector grows the heap by (docs/catalogue.md).
 */
export class CachedPage {
  constructor(
    readonly status: number,
    readonly contentType: string,
    readonly etag: string,
    readonly bodies: Buffer,
    private readonly gzipAt: number,
    private readonly brAt: number,
  ) {}

  get identity(): Buffer {
    return this.bodies.subarray(0, this.gzipAt);
  }

  get gzip(): Buffer {
    return this.bodies.subarray(this.gzipAt, this.brAt);
  }

  get br(): Buffer {
    return this.bodies.subarray(this.brAt);
  }
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

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Bodies up to this size get brotli's best (and slowest) level; larger ones a middle level, whose time
 * grows with the body far less (brotli 11 takes seconds per megabyte). Both run off the event loop.
 */
const BEST_COMPRESSION_BYTES = 256 * 1024;

/** Memory the cache may hold by default: every entry counts its raw, gzip and brotli forms. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * A string in memory of its own. A substring or a concatenation may be a view that keeps its source
 * alive (V8's sliced and cons strings): a key sliced from a request URL would keep the whole URL, junk
 * parameters and all, for as long as the entry lives.
 */
function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The few content types answers have, one string each, rather than a copy per entry. */
const contentTypes = new Map<string, string>();

function sharedContentType(value: string): string {
  const known = contentTypes.get(value);
  if (known !== undefined) return known;
  const own = flat(value);
  if (contentTypes.size < 64) contentTypes.set(own, own);
  return own;
}

export async function toCachedPage(captured: CapturedResponse): Promise<CachedPage> {
  const { body } = captured;
  const best = body.length <= BEST_COMPRESSION_BYTES;
  const [gzipped, brotli] = await Promise.all([
    gzipAsync(body, { level: best ? 9 : 6 }),
    brotliAsync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: best ? 11 : 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  ]);
  const bodies = Buffer.allocUnsafeSlow(body.length + gzipped.length + brotli.length);
  body.copy(bodies, 0);
  gzipped.copy(bodies, body.length);
  brotli.copy(bodies, body.length + gzipped.length);
  return new CachedPage(
    captured.status,
    sharedContentType(header(captured.headers, 'content-type') ?? 'text/html; charset=utf-8'),
    flat(`"${createHash('sha1').update(body).digest('base64url')}"`),
    bodies,
    body.length,
    body.length + gzipped.length,
  );
}

/**
 * What an entry costs besides its bodies and its key, measured with process.memoryUsage() after a full GC
 * (docs/catalogue.md, "The page cache's memory"): the CachedPage, one Buffer and its ArrayBuffer, the
 * ETag's and key's string headers, the Map's slot with its spare room. About 390 bytes an entry in a
 * PageCache alone (scripts/bench/page-cache-memory.mjs), about 760 in the running server, whose 5,000
 * small guest answers held 7.8 MB for 8 MB counted at 800 (server/test/page-cache-memory.e2e-spec.ts):
 * counted with a margin over the larger. The 200 bytes counted before left small guest answers at 1.7
 * times their budget in heap.
 */
export const ENTRY_OVERHEAD_BYTES = 1024;

/** What an entry costs: its three bodies, its key (one byte a character: keys are ASCII) and the rest. */
export function entryBytes(key: string, page: CachedPage): number {
  return page.bodies.length + key.length + ENTRY_OVERHEAD_BYTES;
}

/** An answer that depends on who asked (a locked chapter, read with a token) says so, and is never kept. */
function isPrivate(captured: CapturedResponse): boolean {
  return /\b(private|no-store)\b/i.test(header(captured.headers, 'cache-control') ?? '');
}

export type Encoding = 'br' | 'gzip' | 'identity';

/** Express's own negotiation (req.acceptsEncodings), so that every answer picks an encoding alike. */
// eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call() on a request-like object below
const acceptsEncodings = express.request.acceptsEncodings as (
  this: Pick<IncomingMessage, 'headers'>,
  ...encodings: string[]
) => string | false;

/** Clients send few distinct Accept-Encoding values; each is negotiated once (a bounded memo). */
const encodingMemo = new Map<string, Encoding>();
const ENCODING_MEMO_SIZE = 256;

/** Picks the best encoding the client accepts: brotli, then gzip, then none. */
export function encodingFor(acceptEncoding: string | undefined): Encoding {
  const key = acceptEncoding ?? '';
  let encoding = encodingMemo.get(key);
  if (encoding) return encoding;
  const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
  const accepted = acceptsEncodings.call({ headers }, 'br', 'gzip', 'identity');
  encoding = accepted === 'br' || accepted === 'gzip' ? accepted : 'identity';
  if (encodingMemo.size >= ENCODING_MEMO_SIZE) encodingMemo.clear();
  encodingMemo.set(key, encoding);
  return encoding;
}

/** `Cache-Control: no-cache` in a request asks for the whole answer (a reload), whatever it holds. */
const NO_CACHE = /(?:^|,)\s*?no-cache\s*?(?:,|$)/;

/**
 * Whether the client's copy is still the current one, as Express's `req.fresh` (the `fresh` package)
 * decides for an answer with this ETag and no Last-Modified: If-None-Match naming it (or `*`), unless the
 * request says no-cache. An If-Modified-Since alone is never enough, since cached pages carry no date.
 */
export function isFresh(headers: IncomingHttpHeaders, etag: string): boolean {
  const noneMatch = headers['if-none-match'];
  if (!noneMatch) return false;
  const cacheControl = headers['cache-control'];
  if (cacheControl && NO_CACHE.test(cacheControl)) return false;
  if (noneMatch === '*') return true;
  return noneMatch
    .split(',')
    .map((token) => token.replace(/^ +| +$/g, ''))
    .some((token) => token === etag || token === `W/${etag}` || `W/${token}` === etag);
}

/** What a cached page answers a request: status, headers (names and values in turn) and body. */
interface CachedAnswer {
  status: number;
  headers: string[];
  body: Buffer | undefined;
}

/**
 * A GET or HEAD answered from a cached page: a 304 when the client's copy is current, else the body in the
 * best encoding the client accepts. The one source of a hit's answer, for the Express chain
 * (sendCachedPage) and for the fast path in front of it (writeCachedPage), so both send the same headers
 * in the same order.
 */
function cachedAnswer(req: IncomingMessage, page: CachedPage): CachedAnswer {
  const headers = ['Cache-Control', PAGE_CACHE_CONTROL, 'ETag', page.etag, 'Vary', 'Accept-Encoding'];
  if (isFresh(req.headers, page.etag)) return { status: 304, headers, body: undefined };
  const encoding = encodingFor(req.headers['accept-encoding']);
  const body = page[encoding];
  headers.push('Content-Type', page.contentType);
  if (encoding !== 'identity') headers.push('Content-Encoding', encoding);
  headers.push('Content-Length', String(body.length));
  return { status: page.status, headers, body: req.method === 'HEAD' ? undefined : body };
}

/** A hit in the Express chain (cached-route.ts), after the headers its middlewares have set. */
export function sendCachedPage(req: IncomingMessage, res: ServerResponse, page: CachedPage): void {
  const { status, headers, body } = cachedAnswer(req, page);
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
  res.statusCode = status;
  res.end(body);
}

/**
 * A hit on the fast path (cached-hits.ts): `first` (the request id and the security headers, which the
 * chain's middlewares set before the page's own) and the page's headers in one writeHead, as a bare
 * server writes them. Setting them one by one validated and stored each in a map first: for a small
 * answer, a fair share of the whole hit.
 */
export function writeCachedPage(
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  first: readonly string[],
): void {
  const { status, headers, body } = cachedAnswer(req, page);
  res.writeHead(status, first.concat(headers));
  res.end(body);
}

/**
 * Public pages rendered once and kept in memory, keyed by path and the query's canonical form (see
 * cached-route.ts), so a query string can neither bypass the cache nor multiply its entries. The memory
 * is bounded in bytes: past it, the entries used least recently go first. The catalogue's change events
 * clear it before an admin call returns; a render that overlapped a change is not kept.
 */
export class PageCache {
  /** In order of use, the least recent first (a hit moves its entry to the end). */
  private readonly pages = new Map<string, CachedPage>();
  private bytes = 0;
  private readonly inFlight = new Map<
    string,
    Promise<{ page: CachedPage | null; captured: CapturedResponse | null }>
  >();
  private generation = 0;

  constructor(readonly maxBytes = DEFAULT_CACHE_BYTES) {}

  get(key: string): CachedPage | undefined {
    const page = this.pages.get(key);
    if (page) {
      this.pages.delete(key);
      this.pages.set(key, page);
    }
    return page;
  }

  private keep(key: string, page: CachedPage): void {
    const cost = entryBytes(key, page);
    // One answer larger than the whole budget is served, not kept: it would empty the cache for itself.
    if (cost > this.maxBytes) return;
    const previous = this.pages.get(key);
    if (previous) {
      this.bytes -= entryBytes(key, previous);
      this.pages.delete(key);
    }
    this.pages.set(key, page);
    this.bytes += cost;
    for (const [oldest, old] of this.pages) {
      if (this.bytes <= this.maxBytes) break;
      this.pages.delete(oldest);
      this.bytes -= entryBytes(oldest, old);
    }
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
    const work = renderer().then(async (captured) => ({
      captured,
      page: captured && captured.status === 200 && !isPrivate(captured) ? await toCachedPage(captured) : null,
    }));
    this.inFlight.set(path, work);
    try {
      const result = await work;
      if (result.page && generation === this.generation) this.keep(flat(path), result.page);
      return result;
    } finally {
      if (this.inFlight.get(path) === work) this.inFlight.delete(path);
    }
  }

  clear(): void {
    this.generation++;
    this.pages.clear();
    this.bytes = 0;
    this.inFlight.clear();
  }

  get size(): number {
    return this.pages.size;
  }

  /** The memory the kept entries take, as the budget counts it. */
  get sizeInBytes(): number {
    return this.bytes;
  }
}
