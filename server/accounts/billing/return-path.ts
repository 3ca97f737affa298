/**
 * The page a checkout leads back to (docs/payments.md, "Back to the chapter"): a chapter of the reader,
 * `/read/{book}/{chapter}`, and nothing else. It goes to Stripe inside success_url and cancel_url, so a
 * looser rule would let anyone make our own Stripe return an open redirect; the browser checks the same
 * rule again on the way back (site/lib/checkout-return.ts).
 */
export const READER_PATH = /^\/read\/(?!\.{1,2}\/)(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})+\/[1-9]\d{0,5}$/;

export const NOT_A_READER_PATH =
  'The page to come back to must be a chapter of this site, such as /read/{book}/1.';

export const isReaderPath = (path: unknown): path is string =>
  typeof path === 'string' && READER_PATH.test(path);

/** `/checkout?{outcome}=true`, with `&next=` when there is a chapter to come back to. */
export function checkoutReturnUrl(
  publicUrl: string,
  outcome: 'success' | 'canceled',
  next: string | null | undefined,
): string {
  const query = new URLSearchParams({ [outcome]: 'true' });
  if (next) query.set('next', next);
  return `${publicUrl}/checkout?${query.toString()}`;
}
