/**
 * Turns a book page's "Start reading" into "Continue: chapter N, phrase P" for a reader who has started
 * the book. The page itself stays pre-rendered and shared; only this link changes, in the browser.
 */
import { getToken } from '../session';
import { visitorPlaces } from './visitor-places';

export function continueLinks(): void {
  // Each link changes when its own place arrives; loadPlace() answers null rather than failing.
  document.querySelectorAll<HTMLAnchorElement>('a[data-continue]').forEach((link) => void continueLink(link));
}

async function continueLink(link: HTMLAnchorElement): Promise<void> {
  const bookCode = link.dataset.continue ?? '';
  // The book page is public: an expired session leaves it a visitor's, rather than sending them to sign in.
  // A visitor's place is in this browser; a member's is asked of the server, with the client loaded then.
  const place = getToken()
    ? await import('./reading-progress')
        .then(({ loadPlace }) => loadPlace(bookCode, { passive: true }))
        .catch(() => null)
    : (visitorPlaces()[bookCode] ?? null);
  if (!place) return;
  link.href = `/read/${bookCode}/${place.chapter_no}#p-${place.position}`;
  link.textContent = `Continue: chapter ${place.chapter_no}, phrase ${place.position}`;
}
