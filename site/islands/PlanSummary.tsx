/**
 * The member's plan (none, trialing, active, past due, canceled), on the dashboard and the profile. A
 * member with a Stripe subscription manages or cancels it in Stripe's Billing Portal.
 */
import { describePlan, PLAN, type SubscriptionSummary } from '../lib/plan';
import { ErrorSummary } from './shared/Form';
import { useBillingPortal } from './shared/useBillingPortal';

export default function PlanSummary({ plan }: { plan: SubscriptionSummary | undefined }) {
  const portal = useBillingPortal();
  const subscribed = plan !== undefined && plan.status !== 'none';

  return (
    <section className="form-card" aria-labelledby="plan-heading">
      <h2 id="plan-heading">Your plan</h2>
      <p data-plan-status={plan?.status ?? 'none'}>{describePlan(plan)}</p>
      <ErrorSummary message={portal.error} />
      {subscribed ? (
        <button
          type="button"
          className="button"
          onClick={() => void portal.open()}
          disabled={portal.busy}
          aria-busy={portal.busy || undefined}
        >
          Manage or cancel your subscription
        </button>
      ) : (
        <a className="button-secondary" href="/subs">
          See {PLAN.name} and its {PLAN.trialDays}-day free trial
        </a>
      )}
    </section>
  );
}
