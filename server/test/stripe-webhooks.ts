import Stripe from 'stripe';
import { ApiClient } from './api-client';
import type { TestServer } from './harness';

export const PRICE = 'price_premium_plus';
export const WEBHOOK_SECRET = 'whsec_test_secret';
const stripe = new Stripe('sk_test_unused');

/** The environment of a server whose payments go to the Stripe stand-in at `apiBase`. */
export const stripeEnv = (apiBase: string) => ({
  PUBLIC_URL: 'https://books.example.org',
  STRIPE_SECRET_KEY: 'sk_test_lingonovel',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_lingonovel',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_PRICE_ID: PRICE,
  STRIPE_API_BASE: apiBase,
});

/** Sends signed Stripe events to a server, as Stripe does: plan states in tests come only this way. */
export function webhooks(getServer: () => TestServer) {
  let eventCount = 0;
  const deliver = async (
    event: Record<string, unknown>,
    options: { timestamp?: number; secret?: string } = {},
  ) => {
    const payload = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
    });
    return new ApiClient(getServer()).post('billing/webhook', payload, {
      'Content-Type': 'application/json',
      'Stripe-Signature': header,
    });
  };
  const event = (type: string, object: Record<string, unknown>) => ({
    id: `evt_${++eventCount}_${Date.now()}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const subscriptionObject = (customer: string, userId: number, fields: Record<string, unknown>) => ({
    id: `sub_${customer}`,
    object: 'subscription',
    customer,
    status: 'active',
    trial_end: null,
    cancel_at_period_end: false,
    metadata: { user_id: String(userId) },
    items: { object: 'list', data: [{ id: 'si_1', current_period_end: 1_800_000_000 }] },
    ...fields,
  });
  /** Puts a member's plan in `status`, its period ending at `periodEnd` (unix seconds). */
  const setPlan = async (userId: number, status: string, periodEnd = 1_800_000_000) => {
    const res = await deliver(
      event(
        'customer.subscription.updated',
        subscriptionObject(`cus_${userId}`, userId, {
          status,
          items: { object: 'list', data: [{ id: 'si_1', current_period_end: periodEnd }] },
        }),
      ),
    );
    if (res.status !== 200) throw new Error(`webhook refused: ${res.text}`);
  };
  return { deliver, event, subscriptionObject, setPlan };
}
