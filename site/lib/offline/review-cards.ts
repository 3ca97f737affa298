/**
 * Review without a connection (docs/offline.md, "Review offline"): a member's download of a book also
 * keeps the cards of that book due in the next 7 days and its new cards
 * (`GET user/review/ahead`), with their clips in the member's cache. Offline, /review takes the kept
 * cards that are due by now, less those already answered on this device; the answers wait in the queue
 * (queue.ts) with their time and the card's version.
 */
import type { ReviewCard } from '../../../server/learning/words/review.dto';
import { NEW_PER_DAY } from '../../../server/learning/words/review-limits';
import { api, fetchForDevice } from '../api';
import { clipKey, memberCache, reviewKeyPrefix } from './names';
import { pendingActions } from './queue';
import { entries, put, remove } from './store';

const DAYS_AHEAD = 7;

export interface KeptCards {
  member: number;
  book: string;
  cards: ReviewCard[];
  /** How many new cards a day the member may learn, as the server counts them. */
  newLimit: number;
  /** When they were kept (milliseconds since 1970). */
  at: number;
}

const keyOf = (member: number, book: string) => `${reviewKeyPrefix(member)}${book}`;
/** The card a queued answer is for (its path is user/review/{id}). */
const cardOf = (path: string) => Number(/user\/review\/(\d+)/.exec(path)?.[1]);

/** Keeps a book's cards for the next days, and their clips, for `member`. */
export async function keepReviewCards(member: number, book: string, signal?: AbortSignal): Promise<void> {
  const { data } = await api<{ data: { cards: ReviewCard[]; new_limit: number } }>(
    `user/review/ahead?book_code=${encodeURIComponent(book)}&days=${DAYS_AHEAD}`,
    { signal },
  );
  const cache = await caches.open(memberCache(member));
  const before = (await keptFor(member)).find((k) => k.book === book);
  // A clip the server no longer gives (the plan ended: its link is null now) leaves the device.
  const given = new Set(data.cards.flatMap((card) => (card.audio ? [card.id] : [])));
  for (const card of before?.cards ?? [])
    if (card.audio && !given.has(card.id)) await cache.delete(clipKey(card.audio, location.origin));
  for (const card of data.cards) {
    if (!card.audio) continue;
    const path = clipKey(card.audio, location.origin);
    if (await cache.match(path)) continue;
    try {
      const response = await fetchForDevice(card.audio, { signal });
      await cache.put(
        path,
        new Response(await response.arrayBuffer(), { headers: { 'Content-Type': 'audio/mpeg' } }),
      );
    } catch (error) {
      // One clip that cannot be had (gone, or refused) leaves its card silent, not the whole book unkept.
      if (signal?.aborted) throw error;
    }
  }
  await put(
    'state',
    { member, book, cards: data.cards, newLimit: data.new_limit, at: Date.now() } satisfies KeptCards,
    keyOf(member, book),
  );
}

async function keptFor(member: number): Promise<KeptCards[]> {
  return (await entries<KeptCards>('state'))
    .filter(({ key }) => typeof key === 'string' && key.startsWith(reviewKeyPrefix(member)))
    .map(({ value }) => value);
}

/**
 * The cards to review now from the device: learnt cards due by now, oldest due first, then new cards up to
 * the day's limit, less those answered on this device and not yet sent.
 */
export async function offlineReview(member: number): Promise<{ cards: ReviewCard[]; keptAt: number } | null> {
  const kept = await keptFor(member);
  if (kept.length === 0) return null;
  const answered = new Set((await pendingActions('review')).map((action) => cardOf(action.path)));
  const now = Date.now();
  const all = kept.flatMap((k) => k.cards).filter((card) => !answered.has(card.id));
  const due = all
    .filter((c) => c.state !== 0 && Date.parse(c.due_at) <= now)
    .sort((a, b) => a.due_at.localeCompare(b.due_at));
  // The server's count of new cards left holds for the day the cards were kept; on a later day the full
  // daily allowance starts again, less the new cards answered on this device that day.
  const today = new Date().toDateString();
  const limit = Math.min(
    ...kept.map((k) => (new Date(k.at).toDateString() === today ? k.newLimit : NEW_PER_DAY)),
  );
  const newIds = new Set(
    kept
      .flatMap((k) => k.cards)
      .filter((c) => c.state === 0)
      .map((c) => c.id),
  );
  const newToday = (await pendingActions('review')).filter(
    (a) => newIds.has(cardOf(a.path)) && new Date(a.queuedAt).toDateString() === today,
  ).length;
  const fresh = all.filter((c) => c.state === 0).slice(0, Math.max(0, limit - newToday));
  return { cards: [...due, ...fresh], keptAt: Math.min(...kept.map((k) => k.at)) };
}

/** Forgets the kept cards of a member (all books, or one). */
export async function forgetReviewCards(member: number, book?: string): Promise<void> {
  for (const { key, value } of await entries<KeptCards>('state'))
    if (typeof key === 'string' && key.startsWith(reviewKeyPrefix(member)) && (!book || value.book === book))
      await remove('state', key);
}

/** The clips the kept cards of a member use (their paths), so deleting a download keeps them. */
export async function reviewClipKeys(member: number): Promise<string[]> {
  return (await keptFor(member)).flatMap((k) =>
    k.cards.flatMap((card) => (card.audio ? [clipKey(card.audio, location.origin)] : [])),
  );
}
