/**
 * The service worker (docs/offline.md): built by scripts/build-sw.mjs with Workbox (precaching, routing,
 * range requests), served at /sw.js. What it does:
 * - keeps the site's hashed scripts and styles, the icons and the offline page (the precache);
 * - serves downloaded chapters (their reader page, their data with and without the learner's
 *   translations, and their clips) from the device, free ones to anyone and paid ones only to the member
 *   who downloaded them (access.ts);
 * - when the network is out, serves public pages already visited, and the offline page for the rest;
 * - never keeps any other API answer: those go to the network as if it were not there.
 * A new version waits until the pages ask it to take over (the "Update ready" banner, register.ts), so a
 * chapter playing is never cut; old caches go once it does.
 */
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { createPartialResponse } from 'workbox-range-requests';
import { isCurrentCache, isOurCache, PAGES_CACHE } from '../lib/offline/names';
import {
  deviceCopy,
  isChapterData,
  isClip,
  mayKeepPage,
  refreshKeptPages,
  rememberPage,
  signedOut,
} from './access';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

export const OFFLINE_PAGE = '/offline';

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  // Sent by every sign-out before it leaves the page (site/lib/inline-scripts.ts, api.ts).
  if (type === 'SIGNED_OUT') event.waitUntil(signedOut());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (isOurCache(name) && !isCurrentCache(name)) await caches.delete(name);
      await refreshKeptPages();
      // The first version takes the open pages at once, so a download can start without a reload; a later
      // one only activates when a page asked it to (SKIP_WAITING), and that page reloads.
      await self.clients.claim();
    })(),
  );
});

/** A clip from the device when it was downloaded (with Range, as the audio element asks), else the network. */
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && request.method === 'GET' && isClip(url),
  async ({ request }) => {
    const kept = await deviceCopy(request);
    if (!kept) return fetch(request);
    return request.headers.has('range') ? createPartialResponse(request, kept) : kept;
  },
);

/**
 * A chapter's data: the network first (it may have changed), the device when the network is out. The
 * device's copy waits at most a few seconds for a network that hangs rather than fails.
 */
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && request.method === 'GET' && isChapterData(url),
  async ({ request }) => {
    const kept = await deviceCopy(request);
    if (!kept) return fetch(request);
    return (await networkWithin(request, 4000)) ?? kept;
  },
);

/**
 * Pages: the network first; when it is out, the device's copy (downloaded or visited), else the offline page.
 * Not the API: following a download link is a navigation too, and a failed one must fail as itself, not
 * come back as the offline page saved under the book's name.
 */
registerRoute(
  ({ url, request }) =>
    request.mode === 'navigate' && !(url.origin === self.location.origin && url.pathname.startsWith('/api/')),
  async ({ request, event }) => {
    try {
      const response = await fetch(request);
      // Kept beside the answer, never in its way: a full device (a quota error) must not turn a page the
      // network gave into the offline page.
      if (mayKeepPage(request, response))
        event.waitUntil(rememberPage(request, response.clone()).catch(() => undefined));
      return response;
    } catch {
      return (
        (await deviceCopy(request)) ??
        (await caches.open(PAGES_CACHE).then((cache) => cache.match(request, { ignoreSearch: false }))) ??
        (await matchPrecache(OFFLINE_PAGE)) ??
        Response.error()
      );
    }
  },
);

/** The network's answer, or null when it fails or takes longer than `ms`. */
async function networkWithin(request: Request, ms: number): Promise<Response | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([fetch(request).catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}
