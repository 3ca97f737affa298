/**
 * The caches offline use keeps, and the rules for what goes in which (docs/offline.md). Shared by the
 * pages and the service worker, so both name things alike.
 *
 * - FREE_CACHE: downloaded chapters anyone may read (free chapters): their pages, data and clips.
 * - memberCache(id): downloaded chapters a plan opened, for that member only. The worker serves from it
 *   only while the member recorded in IndexedDB (store.ts) is that member.
 * - PAGES_CACHE: public pages already visited, served when the network is out, marked as offline.
 * Versioned: a worker that changes what they hold raises the version, and old caches are removed when
 * it takes over (site/sw/sw.ts).
 */
export const CACHE_VERSION = 'v1';
export const FREE_CACHE = `lingonovel-free-${CACHE_VERSION}`;
export const PAGES_CACHE = `lingonovel-pages-${CACHE_VERSION}`;
const MEMBER_PREFIX = 'lingonovel-member-';

export function memberCache(memberId: number): string {
  return `${MEMBER_PREFIX}${memberId}-${CACHE_VERSION}`;
}

/** Every cache of ours, whatever its version, so that old ones can be told apart and removed. */
export function isOurCache(name: string): boolean {
  return name.startsWith('lingonovel-');
}

export function isCurrentCache(name: string): boolean {
  return (
    name.endsWith(`-${CACHE_VERSION}`) &&
    (name === FREE_CACHE || name === PAGES_CACHE || name.startsWith(MEMBER_PREFIX))
  );
}

/** The member a cache belongs to, or null for a shared one. */
export function cacheMember(name: string): number | null {
  const match = new RegExp(`^${MEMBER_PREFIX}(\\d+)-`).exec(name);
  return match ? Number(match[1]) : null;
}

/**
 * A clip is kept under its path alone: a locked chapter's clip URLs carry a signature that expires, and
 * the bytes must be found again with the next one.
 */
export function clipKey(url: string, origin: string): string {
  const parsed = new URL(url, origin);
  return parsed.origin + parsed.pathname;
}

/** The chapter data's address, the one the reader asks for (guest/book/{code}/chapter/{n}). */
export function chapterDataPath(book: string, chapterNo: number): string {
  return `/api/v1/guest/book/${encodeURIComponent(book)}/chapter/${chapterNo}`;
}

/**
 * Where a download keeps the chapter's lookups (GET lookup/chapter, docs/lookup.md "Offline"): beside its
 * data, in the same cache, so that deleting the chapter's data (any search) deletes them too.
 */
export const chapterLookupsKey = (book: string, chapterNo: number): string =>
  `${location.origin}${chapterDataPath(book, chapterNo)}?lookups`;

export function readerPath(book: string, chapterNo: number): string {
  return `/read/${encodeURIComponent(book)}/${chapterNo}`;
}

/** The member the pages recorded: who the worker may serve paid downloads to (null: nobody). */
export const MEMBER_KEY = 'member';
export const SYNCED_KEY = 'synced';
/** The keys of a member's kept review cards in the `state` store start so (review-cards.ts), one per book. */
export const reviewKeyPrefix = (member: number) => `review:${member}:`;
/**
 * A member's "I speak" as it was at their last download (translations.ts), for the reader offline: one
 * per member, deleted with their paid downloads (member.ts).
 */
export const speaksKey = (member: number) => `speaks:${member}`;
/**
 * A member's marks and phrase cards of a chapter, and their saved words of it, as the server last gave
 * them (kept-marks.ts), for the reader offline: one of each per member and chapter.
 */
export const marksKey = (member: number, book: string, chapter: number) =>
  `marks:${member}:${book}:${chapter}`;
export const wordsKey = (member: number, book: string, chapter: number) =>
  `words:${member}:${book}:${chapter}`;
/** A member's word statuses of a chapter's forms (word-marks.ts, docs/word-status.md): the reader's underlines. */
export const statusesKey = (member: number, book: string, chapter: number) =>
  `statuses:${member}:${book}:${chapter}`;
/**
 * The member a `state` key of theirs belongs to (their review cards, their "I speak", their marks, saved
 * words and word statuses), or null.
 */
export function stateKeyMember(key: IDBValidKey): number | null {
  const owner = /^(?:review|speaks|marks|words|statuses):(\d+)(?::|$)/.exec(
    typeof key === 'string' ? key : '',
  )?.[1];
  return owner ? Number(owner) : null;
}
/** Where a member's sync state is kept (queue.ts's SyncState): one per member. */
export const syncKey = (member: number) => `${SYNCED_KEY}:${member}`;
export interface RecordedMember {
  id: number | null;
  at: number;
}

/**
 * A member's own pages, kept with a download so they open offline even if never visited here: their
 * shells hold no data (it comes from the API, or offline from the device).
 */
export const SHELLS = ['/review', '/words', '/dashboard', '/downloads'];
