/**
 * The member's plan (none, trialing, active, past due, canceled), on the dashboard and the profile. A
 * member with a Stripe subscription manages or cancels it in Stripe's Billing Portal.
 */
import { useState } from 'react';
import { api, errorMessage } from '../lib/api';
import { describePlan, PLAN, type SubscriptionSummary } from '../lib/plan';
import { ErrorSummary } from './shared/Form';

export default function PlanSummary({ plan }: { plan: SubscriptionSummary | undefined }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const subscribed = plan !== undefined && plan.status !== 'none';

  async function openPortal() {
    setBusy(true);
    setError(null);
    try {
      const { url } = await api<{ url: string }>('user/billing-portal', { method: 'POST' });
      window.location.assign(url);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  }

  return (
    <section className="form-card" aria-labelledby="plan-heading">
      <h2 id="plan-heading">Your plan</h2>
      <p data-plan-status={plan?.status ?? 'none'}>{describePlan(plan)}</p>
      <ErrorSummary message={error} />
      {subscribed ? (
        <button
          type="button"
          className="button"
          onClick={() => void openPortal()}
          disabled={busy}
          aria-busy={busy || undefined}
        >
          Manage or cancel your subscription
        </button>
      ) : (
        <a href="/subs">
          See {PLAN.name} and its {PLAN.trialDays}-day free trial
        </a>
      )}
    </section>
  );
}
