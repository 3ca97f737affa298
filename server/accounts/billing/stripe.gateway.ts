import { Inject, Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { APP_CONFIG, type AppConfig } from '../../platform/config';

export interface CheckoutRequest {
  priceId: string;
  userId: number;
  email: string;
  customerId: string | null;
  trialDays: number | null;
  successUrl: string;
  cancelUrl: string;
}

/**
 * The only place that talks to Stripe. STRIPE_API_BASE points the official client at another host (a
 * local stand-in in tests, or a Stripe-compatible mock), so everything above this runs unchanged.
 */
@Injectable()
export class StripeGateway {
  private readonly stripe: Stripe | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const { secretKey, apiBase } = config.stripe;
    if (!secretKey) {
      this.stripe = null;
      return;
    }
    const base = apiBase ? new URL(apiBase) : null;
    // Loaded here, only where payments are configured: Stripe's client is 219 modules, a tenth of what
    // the server loads at boot, and most installations (and test servers) never take a payment.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const StripeClient = require('stripe') as typeof Stripe;
    this.stripe = new StripeClient(secretKey, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      ...(base && {
        host: base.hostname,
        port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
        protocol: base.protocol === 'https:' ? 'https' : 'http',
      }),
    });
  }

  get enabled(): boolean {
    return this.stripe !== null;
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<string> {
    const metadata = { user_id: String(request.userId) };
    const session = await this.client.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: request.priceId, quantity: 1 }],
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      client_reference_id: String(request.userId),
      ...(request.customerId ? { customer: request.customerId } : { customer_email: request.email }),
      // Stripe Checkout collects the card and the billing address; no card data touches our server.
      billing_address_collection: 'required',
      subscription_data: request.trialDays
        ? { trial_period_days: request.trialDays, metadata }
        : { metadata },
      metadata,
    });
    if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
    return session.url;
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<string> {
    const session = await this.client.billingPortal.sessions.create({
      customer: customerId,
      return_url: returnUrl,
    });
    return session.url;
  }

  /** Verifies the signature (and Stripe's 5-minute tolerance) over the raw body; throws when it fails. */
  constructEvent(rawBody: Buffer, signature: string): Stripe.Event {
    return this.client.webhooks.constructEvent(rawBody, signature, this.config.stripe.webhookSecret ?? '');
  }

  private get client(): Stripe {
    if (!this.stripe) throw new Error('Stripe is not configured');
    return this.stripe;
  }
}
