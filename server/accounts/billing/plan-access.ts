/**
 * Billing's rule for what a plan gives: the access rule (server/content/access/) asks it through MemberPlans, and
 * the site's pages guess with it (site/lib/plan-access.ts). No Nest, no database: the site imports it.
 */

/** What a member's plan looks like to this rule: Stripe's status and the end of the paid period. */
export interface PlanState {
  status: string;
  currentPeriodEnd: Date | null;
}

/**
 * A plan gives access while trialing or active, and while canceled with time left in the period it paid
 * for. past_due, unpaid, incomplete, incomplete_expired, paused, none, a canceled plan whose period has
 * ended, and anything Stripe may add later give none.
 */
export function planGivesAccess(plan: PlanState | null, now: Date): boolean {
  if (!plan) return false;
  if (plan.status === 'trialing' || plan.status === 'active') return true;
  if (plan.status === 'canceled') return plan.currentPeriodEnd !== null && plan.currentPeriodEnd > now;
  return false;
}
