/** docs/product.md section 9: Premium Plus, $20.00, with a 30-day free trial at $0.00. */
export const PLAN = {
  name: 'Premium Plus',
  price: '$20.00',
  period: 'month',
  trialDays: 30,
  features: [
    'Every book in the library, in every language',
    'Phrase-by-phrase audio with its own glossary',
    'New graded stories every month',
    'Cancel at any time from your profile',
  ],
} as const;

/** The server's own type, which the OpenAPI document describes. */
export type { SubscriptionSummary } from '../../server/accounts/billing/billing.dto';
import type { SubscriptionSummary } from '../../server/accounts/billing/billing.dto';

/** A plan's date as the pages show it ("March 12, 2026" in English); "soon" when Stripe gave none. */
export const day = (iso: string | null) =>
  iso ? new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(new Date(iso)) : 'soon';

/** One sentence about a member's plan, for the dashboard and the profile. */
export function describePlan(plan: SubscriptionSummary | undefined): string {
  switch (plan?.status ?? 'none') {
    case 'trialing':
      return `You are on the ${PLAN.name} free trial, which ends on ${day(plan!.trial_ends_at)}.`;
    case 'active':
      return plan!.cancel_at_period_end
        ? `Your ${PLAN.name} plan is canceled; you keep access until ${day(plan!.current_period_end)}.`
        : `You are on ${PLAN.name}. It renews on ${day(plan!.current_period_end)}.`;
    case 'past_due':
    case 'unpaid':
      return `Your last ${PLAN.name} payment did not go through. Please update your card.`;
    case 'canceled':
      return plan!.current_period_end && new Date(plan!.current_period_end) > new Date()
        ? `Your ${PLAN.name} plan is canceled; you keep access until ${day(plan!.current_period_end)}.`
        : `Your ${PLAN.name} plan has ended.`;
    case 'none':
      return 'You are on the free plan.';
    default:
      return `Your ${PLAN.name} plan is ${plan!.status.replace(/_/g, ' ')}.`;
  }
}
