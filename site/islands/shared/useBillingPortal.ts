import { useState } from 'react';
import { api, errorMessage } from '../../lib/api';

/**
 * Opens the member's Stripe Billing Portal (POST user/billing-portal), where they change their card or
 * cancel; `busy` while Stripe makes the session, `error` when it could not.
 */
export function useBillingPortal() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function open() {
    setBusy(true);
    setError(null);
    try {
      const { url } = await api<{ url: string }>('user/billing-portal', { method: 'POST' });
      // Stays busy: the portal page is loading.
      window.location.assign(url);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  }

  return { busy, error, open };
}
