/**
 * The page a checkout started from (a locked chapter), carried through Stripe Checkout: `/check?next=…`
 * keeps it in this tab's sessionStorage before going to Stripe, and the page Stripe sends the member back
 * to reads it. It is followed only when it is one of this site's paths (safeNextPath, as at sign-in),
 * both when kept and when read back.
 */
import { currentNextPath, safeNextPath } from './session';

const KEY = 'checkout-next';

/** Keeps the current page's `next` for the way back from Stripe, or forgets an older one. */
export function rememberCheckoutReturn(): void {
  const next = currentNextPath();
  try {
    if (next) window.sessionStorage.setItem(KEY, next);
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage blocked: the checkout works, only the link back is lost.
  }
}

/** The page to go back to after a checkout, when one was kept. */
export function checkoutReturn(): string | null {
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
