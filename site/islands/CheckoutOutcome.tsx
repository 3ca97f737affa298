/**
 * What happened, on the page Stripe sends the member back to (/checkout?success or ?canceled), and the
 * way back to the chapter that led there (carried through Stripe: lib/checkout-return.ts).
 *
 * After a payment, the plan is what Stripe's webhooks have told the server; they usually arrive within
 * seconds of the redirect, sometimes after it. So the island asks for the member's plan until it shows
 * the new subscription, for a while, and says so meanwhile. The way back to the chapter is the page's
 * main action once the plan is there (or the wait is over): followed earlier, it would show the lock.
 */
import { useEffect, useState } from 'react';
import { api } from '../lib/api';
import { checkoutReturn, returnLabel } from '../lib/checkout-return';
import { day, PLAN, type SubscriptionSummary } from '../lib/plan';
import { getToken } from '../lib/session';
import '../styles/plans.css';

/** How often, and how long, the plan is asked for while the webhooks are on their way. */
const POLL_MS = 1500;
const WAIT_MS = 30_000;
const STARTED = new Set(['trialing', 'active']);

type Plan = SubscriptionSummary | 'waiting' | 'late' | null;

export default function CheckoutOutcome({ outcome }: { outcome: 'success' | 'canceled' }) {
  const [back, setBack] = useState<string | null>(null);
  const [plan, setPlan] = useState<Plan>(null);

  useEffect(() => setBack(checkoutReturn()), []);

  useEffect(() => {
    if (outcome !== 'success' || !getToken()) return;
    const abort = new AbortController();
    const until = Date.now() + WAIT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const { data } = await api<{ data: { subscription: SubscriptionSummary } }>('user/profile', {
          signal: abort.signal,
        });
        if (STARTED.has(data.subscription.status)) return setPlan(data.subscription);
      } catch {
        if (abort.signal.aborted) return;
      }
      if (Date.now() > until) return setPlan('late');
      setPlan('waiting');
      timer = setTimeout(() => void ask(), POLL_MS);
    };
    void ask();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [outcome]);

  return (
    <div className="plan-offer checkout-outcome">
      {/* One live region, in the page from the start, so that each change of it is announced. */}
      {outcome === 'success' && (
        <div role="status">
          <PlanStarted plan={plan} />
        </div>
      )}
      {back && (outcome === 'canceled' || settled(plan)) && (
        <p>
          <a className="button" href={back}>
            {returnLabel(back)}
          </a>
        </p>
      )}
    </div>
  );
}

/** The wait for the plan is over: it started, or is late, or is not asked for (no session here). */
const settled = (plan: Plan) => (plan === null ? !getToken() : plan !== 'waiting');

function PlanStarted({ plan }: { plan: Plan }) {
  if (plan === null) return null;
  if (plan === 'waiting') return <p>Stripe is confirming your order. Your plan shows here in a moment…</p>;
  if (plan === 'late')
    return (
      <p>
        Stripe has not confirmed your order to us yet. Your plan will show on your dashboard as soon as it
        does.
      </p>
    );
  return (
    <div data-plan-status={plan.status}>
      {plan.status === 'trialing' ? (
        <>
          <p className="plan-offer-title">Your free trial of {PLAN.name} has started.</p>
          <p>
            Every chapter of every book is open to you. Your trial ends on {day(plan.trial_ends_at)}, and your
            first payment of {PLAN.price} is due on that day, unless you cancel before then. Nothing has been
            charged today.
          </p>
        </>
      ) : (
        <>
          <p className="plan-offer-title">Your {PLAN.name} subscription has started.</p>
          <p>{`Every chapter of every book is open to you. Your plan renews on ${day(plan.current_period_end)}.`}</p>
        </>
      )}
    </div>
  );
}
