/**
 * Who gets what from the device (docs/offline.md, "Access stays enforced"). The server decides access online; offline,
 * the device may only hand back what the server already gave, and paid copies only to the member who
 * downloaded them:
 * - a free chapter's copy (FREE_CACHE) to anyone;
 * - a paid copy (memberCache(id)) only while the member the pages recorded in IndexedDB is `id`, and, for
 *   a request that carries a token, only when that token names `id` too. A worker cannot check a token's
 *   signature, but it needs none: it only ever refuses on a mismatch, and what it serves is the recorded
 *   member's own.
 */
import {
  cacheMember,
  clipKey,
  FREE_CACHE,
  isOurCache,
  MEMBER_KEY,
  memberCache,
  PAGES_CACHE,
  SHELLS,
  type RecordedMember,
} from '../lib/offline/names';
import { get, put } from '../lib/offline/store';

/** Visited pages kept for offline use: the newest ones. */
const MAX_PAGES = 60;

/** Paths never kept as visited pages: personal shells, one-off states, the admin. */
const NOT_KEPT = /^\/(admin|checkout|check|resetpassword|offline)(\/|$)/;

export function isClip(url: URL): boolean {
  return url.pathname.startsWith('/media/lines/');
}

export function isChapterData(url: URL): boolean {
  return /^\/api\/v1\/guest\/book\/[^/]+\/chapter\/\d+$/.test(url.pathname);
}

/** The member a bearer token names (its `sub`), read without checking its signature; null if none. */
export function tokenMember(request: Request): number | null {
  const match = /^Bearer [\w-]+\.([\w-]+)\.[\w-]+$/.exec(request.headers.get('authorization') ?? '');
  if (!match) return null;
  try {
    const json = atob(match[1].replace(/-/g, '+').replace(/_/g, '/'));
    const sub = Number((JSON.parse(json) as { sub?: unknown }).sub);
    return Number.isSafeInteger(sub) ? sub : null;
  } catch {
    return null;
  }
}

/**
 * The member whose paid copies this request may get, or null. Chapter data is only ever asked for with
 * the member's token (the reader sends it): without one, or with another member's, nothing paid.
 */
async function entitledMember(request: Request): Promise<number | null> {
  const recorded = (await get<RecordedMember>('state', MEMBER_KEY).catch(() => undefined))?.id ?? null;
  if (recorded === null) return null;
  const needsToken = isChapterData(new URL(request.url)) || request.headers.has('authorization');
  if (needsToken && tokenMember(request) !== recorded) return null;
  return recorded;
}

/**
 * The device's copy of a download (page, data or clip) this request may have, or undefined. Chapter data
 * asked with `?translations=` is looked for under its full address first (a download keeps the reader's
 * own request, downloads.ts), then under the path alone: that copy has no translations, and the reader
 * then shows none.
 */
export async function deviceCopy(request: Request): Promise<Response | undefined> {
  const url = new URL(request.url);
  const path = clipKey(request.url, self.location.origin);
  const keys = isChapterData(url) && url.search ? [request.url, path] : [path];
  const free = await caches.open(FREE_CACHE);
  let member: Cache | null | undefined;
  for (const key of keys) {
    const copy = await free.match(key);
    if (copy) return copy;
    if (member === undefined) member = await memberCopies(request);
    const own = await member?.match(key);
    if (own) return own;
  }
  return undefined;
}

/** The cache of the member this request may get paid copies for, or null. */
async function memberCopies(request: Request): Promise<Cache | null> {
  const member = await entitledMember(request);
  if (member === null) return null;
  // caches.has first: opening a cache that does not exist would create it.
  const name = memberCache(member);
  return (await caches.has(name)) ? caches.open(name) : null;
}

/** A public page, fully fetched from our origin, that says a shared cache may keep it. */
export function mayKeepPage(request: Request, response: Response): boolean {
  if (request.method !== 'GET' || response.status !== 200 || response.type !== 'basic') return false;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NOT_KEPT.test(url.pathname)) return false;
  if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return false;
  return !/\b(private|no-store)\b/i.test(response.headers.get('cache-control') ?? '');
}

/** Keeps a visited public page, dropping the oldest past MAX_PAGES (never a member's own page shells). */
export async function rememberPage(request: Request, response: Response): Promise<void> {
  const cache = await caches.open(PAGES_CACHE);
  await cache.put(request.url, response);
  const visited = (await cache.keys()).filter((key) => !SHELLS.includes(new URL(key.url).pathname));
  for (const old of visited.slice(0, Math.max(0, visited.length - MAX_PAGES))) await cache.delete(old);
}

/** A signed-out page told the worker: nobody is recorded now, and the members' caches go at once. */
export async function signedOut(): Promise<void> {
  await put('state', { id: null, at: Date.now() } satisfies RecordedMember, MEMBER_KEY);
  for (const name of await caches.keys()) if (cacheMember(name) !== null) await caches.delete(name);
}

/**
 * After an update, the pages kept on the device (downloaded chapters', visited ones, the member's shells)
 * point at the old build's scripts, which the new precache no longer holds: each is fetched again while
 * the network is there. One that cannot be fetched keeps its old copy.
 */
export async function refreshKeptPages(): Promise<void> {
  for (const name of await caches.keys()) {
    if (!isOurCache(name)) continue;
    const cache = await caches.open(name);
    for (const key of await cache.keys()) {
      const path = new URL(key.url).pathname;
      if (path.startsWith('/api/') || isClip(new URL(key.url))) continue;
      try {
        const response = await fetch(key.url, { credentials: 'same-origin', cache: 'no-store' });
        if (response.ok && (response.headers.get('content-type') ?? '').startsWith('text/html'))
          await cache.put(key, response);
      } catch {
        return; // Offline: the next update's activation, or the next download, tries again.
      }
    }
  }
}
