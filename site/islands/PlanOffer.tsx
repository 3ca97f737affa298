/**
 * The plan pages' offer, fitted to the member (/subs, /check, /checkout, /purchase). Those pages are the
 * same cached HTML for everyone, so the page renders its usual offer (the trial, the plan) as this
 * island's children: what a visitor, a signed-out browser and a browser without JavaScript see. For a
 * signed-in member, the island reads the plan from GET user/profile and follows `offer`, which the
 * server decides with the same rule that refuses a second Checkout:
 * - `manage`: "You already have Premium Plus" and the billing portal, never a button that would start a
 *   second subscription (or, for a subscription waiting for a payment, the card to update);
 * - `subscribe`: the trial was used, so the price and Checkout instead of "Try for $0.00";
 * - `trial`: the page's own offer.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { api } from '../lib/api';
import { describePlan, PLAN, type SubscriptionSummary } from '../lib/plan';
import { getToken } from '../lib/session';
import PlanButton from './PlanButton';
import { ErrorSummary } from './shared/Form';
import { useBillingPortal } from './shared/useBillingPortal';
import '../styles/plans.css';

/** The statuses a plan gives access in; the rest of `manage` is a subscription waiting for a payment. */
const HELD_WITH_ACCESS = new Set(['trialing', 'active', 'canceled']);

interface Props {
  /** Which page: it decides what a member whose trial was used is offered instead of the page's own. */
  page: 'subs' | 'check' | 'checkout' | 'purchase';
  /** Stripe's price, for a Checkout button (null when payments are off). */
  priceId: string | null;
  children?: ReactNode;
}

export default function PlanOffer({ page, priceId, children }: Props) {
  const [plan, setPlan] = useState<SubscriptionSummary | null>(null);

  useEffect(() => {
    if (!getToken()) return;
    const abort = new AbortController();
    api<{ data: { subscription: SubscriptionSummary } }>('user/profile', { signal: abort.signal })
      .then(({ data }) => setPlan(data.subscription))
      // An administrator, or a failure: the page's own offer stays, and the server still refuses a second
      // subscription.
      .catch(() => undefined);
    return () => abort.abort();
  }, []);

  // /check's heading promises the trial: a member it is not for reads what the page offers instead.
  useEffect(() => {
    const heading = page === 'check' ? document.getElementById('plan-page-heading') : null;
    if (!heading || !plan || plan.offer === 'trial') return;
    heading.textContent = plan.offer === 'manage' ? PLAN.name : `Subscribe to ${PLAN.name}`;
    document.title = document.title.replace(/^Free trial/, heading.textContent);
  }, [page, plan]);

  if (plan?.offer === 'manage') return <AlreadySubscribed plan={plan} />;
  if (plan?.offer === 'subscribe' && priceId) {
    if (page === 'check') return <TrialUsed priceId={priceId} />;
    if (page === 'subs' || page === 'purchase')
      return (
        <div className="plan-offer" data-plan-offer="subscribe">
          <p className="plan-offer-price">
            {PLAN.price} <span>per {PLAN.period}</span>
          </p>
          <p>You have had your free trial.</p>
          <p>
            <a className="button" href="/checkout">
              Subscribe now
            </a>
          </p>
        </div>
      );
  }
  return <>{children}</>;
}

function AlreadySubscribed({ plan }: { plan: SubscriptionSummary }) {
  const portal = useBillingPortal();
  const access = HELD_WITH_ACCESS.has(plan.status);
  return (
    <div className="plan-offer" data-plan-offer="manage">
      <p className="plan-offer-title">
        {access
          ? `You already have ${PLAN.name}.`
          : `Your ${PLAN.name} subscription is waiting for a payment.`}
      </p>
      <p>
        {access
          ? describePlan(plan)
          : 'Update your card in the billing portal instead of starting a second subscription.'}
      </p>
      <ErrorSummary message={portal.error} />
      <p>
        {/* A link to the profile, which also opens the portal, so that it works before this island runs. */}
        <a
          className="button"
          href="/profile"
          aria-busy={portal.busy || undefined}
          onClick={(event) => {
            event.preventDefault();
            if (!portal.busy) void portal.open();
          }}
        >
          {access
            ? 'Manage your subscription in the billing portal'
            : 'Update your card in the billing portal'}
        </a>
      </p>
    </div>
  );
}

function TrialUsed({ priceId }: { priceId: string }) {
  return (
    <div className="plan-offer" data-plan-offer="subscribe">
      <p className="plan-offer-title">You have had your free trial.</p>
      <dl>
        <div className="total">
          <dt>
            {PLAN.name}, every {PLAN.period}
          </dt>
          <dd>{PLAN.price}</dd>
        </div>
      </dl>
      <p>
        Your card and billing address are collected by Stripe Checkout, on Stripe's secure page. You can
        cancel at any time from your profile.
      </p>
      <PlanButton
        endpoint="user/create-subscription"
        priceId={priceId}
        label={`Subscribe for ${PLAN.price} a ${PLAN.period}`}
      />
    </div>
  );
}
