/**
 * The chapter a checkout started from (a locked chapter), carried through Stripe Checkout (docs/payments.md,
 * "Back to the chapter"): the checkout's request sends it (`next`), the server puts it into the addresses
 * Stripe sends the member back to (`/checkout?success=true&next=…`), and the page there offers it. This tab's
 * sessionStorage keeps it too, for a return address without it. It is followed only when it is one of this
 * site's paths (safeNextPath, as at sign-in) and a chapter (the server's rule: isReaderPath), both when sent
 * and when read back.
 */
import { isReaderPath } from '../../server/accounts/billing/return-path';
import { currentNextPath, safeNextPath } from './session';

const KEY = 'checkout-next';

const chapterPath = (path: string | null): string | null => {
  const safe = safeNextPath(path);
  return isReaderPath(safe) ? safe : null;
};

/** The chapter this page's `next` names, for the checkout's request; null for anything else. */
export const checkoutNext = (): string | null => chapterPath(currentNextPath());

/** Keeps the current page's `next` for the way back from Stripe, or forgets an older one. */
export function rememberCheckoutReturn(): void {
  const next = currentNextPath();
  try {
    if (next) window.sessionStorage.setItem(KEY, next);
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage blocked: the checkout works, and the return address still carries the chapter.
  }
}

/** The page to go back to after a checkout: the return address's `next`, else the one kept here. */
export function checkoutReturn(): string | null {
  const carried = chapterPath(new URLSearchParams(window.location.search).get('next'));
  if (carried) return carried;
  try {
    return safeNextPath(window.sessionStorage.getItem(KEY));
  } catch {
    return null;
  }
}

/** What a link back to `path` says: the chapter, for a reader page. */
export function returnLabel(path: string): string {
  const chapter = /^\/read\/[^/?#]+\/(\d+)(?:[?#]|$)/.exec(path)?.[1];
  return chapter ? `Continue reading: chapter ${chapter}` : 'Go back to where you were';
}
