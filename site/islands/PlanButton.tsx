/**
 * Checkout and Try for $0.00: sends a signed-in member to Stripe Checkout. A visitor who is not signed in
 * signs in first and comes back to this page (its `next` kept). The page's `next` (the chapter that led
 * here) goes with the request, for Stripe to send the member back to it (lib/checkout-return.ts). Card details are only ever typed on Stripe's page.
 */
import { useState, type SubmitEvent } from 'react';
import { api, ApiError, errorMessage } from '../lib/api';
import { checkoutNext, rememberCheckoutReturn } from '../lib/checkout-return';
import { getToken } from '../lib/session';
import { ErrorSummary, SubmitButton } from './shared/Form';

interface Props {
  endpoint: 'user/create-subscription' | 'user/start-trial';
  priceId: string;
  label: string;
}

export default function PlanButton({ endpoint, priceId, label }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [manage, setManage] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!getToken()) {
      const here = window.location.pathname + window.location.search;
      window.location.assign(`/login?next=${encodeURIComponent(here)}`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const next = checkoutNext();
      const { url } = await api<{ url: string }>(endpoint, {
        method: 'POST',
        body: next ? { price_id: priceId, next } : { price_id: priceId },
      });
      rememberCheckoutReturn();
      window.location.assign(url);
    } catch (failure) {
      // 409: the member's plan already gives access; the server's message says where to manage it.
      const conflict = failure instanceof ApiError && failure.status === 409;
      setError(conflict ? failure.message : errorMessage(failure));
      setManage(conflict);
      setBusy(false);
    }
  }

  return (
    <form method="post" action={`/api/v1/${endpoint}`} onSubmit={(event) => void submit(event)}>
      <input type="hidden" name="price_id" value={priceId} />
      <ErrorSummary message={error} />
      {manage && <a href="/profile">Manage your subscription on your profile</a>}
      <SubmitButton busy={busy}>{label}</SubmitButton>
    </form>
  );
}
