/**
 * What every page does for offline use (docs/offline.md), from BaseLayout: registers the service worker,
 * records who is signed in for it (member.ts), says when the page shows the device's copy, offers a new
 * version once it is ready, and, back online, sends what was queued (queue.ts) and lets go of paid
 * downloads a plan no longer opens. On a plain-HTTP installation (no secure context) it does nothing, and
 * the site works as it always did. It is on every page, so what only some visits need (the queue, the
 * API client, the review cards) is loaded only when there is something for it to do.
 */
import { getToken, getUser } from '../session';
import type { DownloadRecord } from './downloads';
import { forgetPaidDownloads, recordMember } from './member';
import { chapterDataPath, reviewKeyPrefix, syncKey } from './names';
import type { QueuedAction } from './queue';
import { entries, get, offlineSupported, put } from './store';

function banner(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[data-net-status]');
}

/** The offline notice: shown while the browser has no connection (pages then come from the device). */
function showConnection(): void {
  const notice = banner()?.querySelector<HTMLElement>('[data-offline]');
  if (notice) notice.hidden = navigator.onLine;
  const region = banner();
  if (region) region.hidden = navigator.onLine && !region.querySelector('[data-update]:not([hidden])');
}

/** A new version waits; the learner chooses when it takes over (never in the middle of a chapter). */
function offerUpdate(registration: ServiceWorkerRegistration): void {
  const waiting = registration.waiting;
  const button = banner()?.querySelector<HTMLElement>('[data-update]');
  if (!waiting || !navigator.serviceWorker.controller || !button) return;
  button.hidden = false;
  banner()!.hidden = false;
  button.onclick = () => {
    navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
    waiting.postMessage({ type: 'SKIP_WAITING' });
  };
}

async function register(): Promise<void> {
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  offerUpdate(registration);
  registration.addEventListener('updatefound', () => {
    registration.installing?.addEventListener('statechange', () => offerUpdate(registration));
  });
}

/**
 * Back online, a paid download stays only while the server still opens it: one chapter per book is asked
 * for again (HEAD, with the member's token), and a refusal (the plan ended) deletes that member's paid
 * downloads. The server decides, by the same rule as for reading (server/content/access/chapter-access.ts).
 */
async function checkPaidDownloads(memberId: number): Promise<void> {
  const paid = (await entries<DownloadRecord>('downloads')).filter(({ value }) => value.member === memberId);
  if (paid.length === 0) return;
  const { ApiError, fetchForDevice } = await import('../api');
  const books = new Map(paid.map(({ value }) => [value.book, value.chapter]));
  for (const [book, chapter] of books) {
    try {
      await fetchForDevice(chapterDataPath(book, chapter), { withToken: true, method: 'HEAD' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) return forgetPaidDownloads(memberId);
    }
  }
}

/** How often a page load asks again for the kept review cards (the 'online' event always does). */
const CARDS_EVERY_MS = 5 * 60_000;

/**
 * The kept review cards follow the server: answers given online since, and clips a lapsed plan no longer
 * gives (their copies leave the device).
 */
async function refreshCards(memberId: number, always: boolean): Promise<void> {
  const books = (await entries<{ book: string }>('state'))
    .filter(({ key }) => typeof key === 'string' && key.startsWith(reviewKeyPrefix(memberId)))
    .map(({ value }) => value.book);
  const key = `cards-checked:${memberId}`;
  const last = (await get<number>('state', key)) ?? 0;
  if (books.length === 0 || (!always && Date.now() - last < CARDS_EVERY_MS)) return;
  await put('state', Date.now(), key);
  const { keepReviewCards } = await import('./review-cards');
  for (const book of books) await keepReviewCards(memberId, book).catch(() => undefined);
}

async function whenOnline(always: boolean): Promise<void> {
  showConnection();
  if (!navigator.onLine) return;
  const user = getUser();
  if (!getToken() || !user) return;
  const waiting = (await entries<QueuedAction>('queue')).some(({ value }) => value.member === user.id);
  if (waiting) await (await import('./queue')).flushQueue();
  else {
    // Nothing waits: the device is in step with the server as of now.
    const state = await get<object>('state', syncKey(user.id));
    await put('state', { notApplied: 0, ...state, at: Date.now() }, syncKey(user.id));
  }
  await checkPaidDownloads(user.id);
  await refreshCards(user.id, always);
}

export function setUpOffline(): void {
  if (!offlineSupported()) return;
  showConnection();
  addEventListener('offline', showConnection);
  addEventListener('online', () => void whenOnline(true));
  const user = getUser();
  void recordMember(getToken() && user ? user.id : null)
    .then(() => whenOnline(false))
    .catch(() => undefined);
  void register().catch(() => undefined);
}
