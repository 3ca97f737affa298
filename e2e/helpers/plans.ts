import { expect, type APIRequestContext } from '@playwright/test';
import Stripe from 'stripe';

/** playwright.config.ts starts the server with this webhook secret. */
const WEBHOOK_SECRET = 'whsec_e2e';
const stripe = new Stripe('sk_test_unused');
let events = 0;

/** Puts a member's plan in `status` the only way plans change: a signed Stripe webhook. */
export async function setPlan(request: APIRequestContext, userId: number, status: string): Promise<void> {
  const payload = JSON.stringify({
    id: `evt_e2e_${Date.now()}_${++events}`,
    object: 'event',
    type: 'customer.subscription.updated',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `sub_e2e_${userId}`,
        object: 'subscription',
        customer: `cus_e2e_${userId}`,
        status,
        trial_end: null,
        cancel_at_period_end: false,
        metadata: { user_id: String(userId) },
        items: {
          object: 'list',
          data: [{ id: 'si_1', current_period_end: Math.floor(Date.now() / 1000) + 86400 * 30 }],
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
