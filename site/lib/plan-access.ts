/**
 * What the one using this browser may open, decided here because the public pages (the book page, the
 * reader's free chapters) are one cached HTML for everyone: `whole` (an administrator, or a plan that
 * gives access), `sample` (a member without one), `visitor` (no session, or one the server no longer
 * knows: an expired token must not send a reader who only looks at a public page to the sign-in page),
 * or null when it cannot be known (offline, a server error). The server decides again at every chapter
 * and download (server/content/access/access.service.ts): a wrong guess here only changes what a page shows.
 *
 * One question per page: every caller shares the same answer. The API client is loaded only for one
 * signed in: a visitor's book page stays within its JS budget (docs/benchmarks.md).
 */
import { planGivesAccess } from '../../server/accounts/billing/plan-access';
import type { SubscriptionSummary } from './plan';
import { getToken, getUser, UserType } from './session';

export type Edition = 'whole' | 'sample' | 'visitor';

let asked: Promise<Edition | null> | null = null;

export function readerEdition(): Promise<Edition | null> {
  asked ??= ask();
  return asked;
}

async function ask(): Promise<Edition | null> {
  if (!getToken()) return 'visitor';
  if (getUser()?.user_type === UserType.Admin) return 'whole';
  let client: typeof import('./api');
  try {
    client = await import('./api');
  } catch {
    return null; // offline, and the client not kept on this device
  }
  const { api, ApiError } = client;
  try {
    const { data } = await api<{ data: { subscription?: SubscriptionSummary } }>('user/profile', {
      passive: true,
    });
    const plan = data.subscription;
    if (!plan) return 'sample';
    const end = plan.current_period_end ? new Date(plan.current_period_end) : null;
    return planGivesAccess({ status: plan.status, currentPeriodEnd: end }, new Date()) ? 'whole' : 'sample';
  } catch (error) {
    return error instanceof ApiError && error.status === 401 ? 'visitor' : null;
  }
}
