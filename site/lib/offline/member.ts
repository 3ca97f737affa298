/**
 * Tells the service worker who is signed in (it cannot read localStorage, where the session lives), and
 * removes a member's paid downloads once they leave this browser (docs/offline.md, "Access stays enforced"). Every page
 * calls recordMember at load; the session's own changes (sign-in, sign-out, a 401) end in a page load too.
 */
import { cacheMember, isOurCache, MEMBER_KEY, stateKeyMember, type RecordedMember } from './names';
import { entries, get, put, remove } from './store';
import type { DownloadRecord } from './downloads';

/** Deletes every paid download of `memberId` (its cache and its records) and the review cards kept for them. */
export async function forgetPaidDownloads(memberId: number): Promise<void> {
  for (const name of await caches.keys())
    if (isOurCache(name) && cacheMember(name) === memberId) await caches.delete(name);
  for (const { key, value } of await entries<DownloadRecord>('downloads'))
    if (value.member === memberId) await remove('downloads', key);
  // The review cards and "I speak" kept for them (review-cards.ts, translations.ts), read here by key:
  // every page loads this file.
  for (const { key } of await entries('state'))
    if (stateKeyMember(key) === memberId) await remove('state', key);
  dispatchEvent(new Event(DOWNLOADS_CHANGED));
}

/** Said on the window when downloads went away other than by the learner's hand (/downloads redraws). */
export const DOWNLOADS_CHANGED = 'lingonovel:downloads-changed';

/**
 * Records the member signed in now (null: nobody). Another member than the one recorded before (or
 * nobody) means the previous one left: their paid downloads go, and so does anything a member other than
 * this one left behind (a browser closed in the middle of a sign-out).
 */
export async function recordMember(id: number | null): Promise<void> {
  const previous = (await get<RecordedMember>('state', MEMBER_KEY))?.id ?? null;
  // Recorded first: from now on the worker serves nothing of a member who left, even before the delete.
  if (previous !== id) await put('state', { id, at: Date.now() } satisfies RecordedMember, MEMBER_KEY);
  const others = new Set<number>();
  for (const name of await caches.keys()) {
    const owner = isOurCache(name) ? cacheMember(name) : null;
    if (owner !== null && owner !== id) others.add(owner);
  }
  for (const { value } of await entries<DownloadRecord>('downloads'))
    if (value.member !== null && value.member !== id) others.add(value.member);
  for (const { key } of await entries('state')) {
    const owner = stateKeyMember(key);
    if (owner !== null && owner !== id) others.add(owner);
  }
  for (const member of others) await forgetPaidDownloads(member);
}
