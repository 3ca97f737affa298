import { expect, type APIRequestContext } from '@playwright/test';
import Stripe from 'stripe';

/** playwright.config.ts starts the server with this webhook secret. */
const WEBHOOK_SECRET = 'whsec_e2e';
const stripe = new Stripe('sk_test_unused');
let events = 0;

export interface PlanEvent {
  /** The trial's end, in unix seconds (null: no trial). */
  trialEnd?: number | null;
  /** The end of the period paid for, in unix seconds (30 days from now by default). */
  periodEnd?: number;
  type?: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted';
}

/** Puts a member's plan in `status` the only way plans change: a signed Stripe webhook. */
export async function setPlan(
  request: APIRequestContext,
  userId: number,
  status: string,
  { trialEnd = null, periodEnd, type = 'customer.subscription.updated' }: PlanEvent = {},
): Promise<void> {
  const payload = JSON.stringify({
    id: `evt_e2e_${Date.now()}_${++events}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `sub_e2e_${userId}`,
        object: 'subscription',
        customer: `cus_e2e_${userId}`,
        status,
        trial_end: trialEnd,
        cancel_at_period_end: false,
        metadata: { user_id: String(userId) },
        items: {
          object: 'list',
          data: [{ id: 'si_1', current_period_end: periodEnd ?? Math.floor(Date.now() / 1000) + 86400 * 30 }],
        },
      },
    },
  });
  const response = await request.post('/api/v1/billing/webhook', {
    data: payload,
    headers: {
      'Content-Type': 'application/json',
      'Stripe-Signature': stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}
