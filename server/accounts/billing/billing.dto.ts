import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Field } from '../../platform/common/field';
import { NOT_A_READER_PATH, READER_PATH } from './return-path';
import type { Subscription } from './subscription.entity';

/** The checkout form (docs/product.md section 7) posts a hidden price identifier; `priceId` is accepted too. */
export class CheckoutDto {
  @Field(
    IsOptional(),
    IsString({ message: 'The price id must be text.' }),
    MaxLength(255, { message: 'This price is not offered here.' }),
  )
  price_id?: string;

  @Field(
    IsOptional(),
    IsString({ message: 'The price id must be text.' }),
    MaxLength(255, { message: 'This price is not offered here.' }),
  )
  priceId?: string;

  /** The chapter the checkout started from: Stripe sends the member back to /checkout with it. */
  @Field(
    IsOptional(),
    IsString({ message: NOT_A_READER_PATH }),
    MaxLength(300, { message: NOT_A_READER_PATH }),
    Matches(READER_PATH, { message: NOT_A_READER_PATH }),
  )
  next?: string;
}

export class TrialDto extends CheckoutDto {}

/**
 * What the plan pages offer a member: the free trial, a subscription without a trial (the trial was
 * used), or the billing portal (the plan gives access, or Stripe still holds a subscription waiting for
 * a payment: a new Checkout would be refused with a 409).
 */
export const PLAN_OFFERS = ['trial', 'subscribe', 'manage'] as const;
export type PlanOffer = (typeof PLAN_OFFERS)[number];

export class SubscriptionSummary {
  @ApiProperty({ description: "Stripe's subscription status, or `none`." }) status: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) trial_ends_at: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) current_period_end: string | null;
  @ApiProperty() cancel_at_period_end: boolean;
  @ApiProperty({ description: 'The member has had the free trial: Try for $0.00 is refused.' })
  trial_used: boolean;
  @ApiProperty({
    enum: PLAN_OFFERS,
    description:
      'What the plan pages offer: `trial` (Try for $0.00), `subscribe` (the trial was used) or `manage` (the billing portal: the plan gives access, or a subscription waits for a payment).',
  })
  offer: PlanOffer;
}

/** A Stripe page to send the member to (a form post is redirected there with 303 instead). */
export class RedirectAnswer {
  @ApiProperty() url: string;
}

export const ALREADY_SUBSCRIBED_ANSWER =
  "The member's plan already gives access (trialing, active, or canceled with time left): no second " +
  'subscription is started. `portal_url` opens the billing portal instead.';

/** The field a refused checkout carries besides its message (OpenAPI). */
export const PORTAL_LINK = {
  portal_url: {
    type: 'string',
    nullable: true,
    description:
      "A Stripe Billing Portal session for the member's customer; null when Stripe could not make one " +
      '(`POST user/billing-portal` makes one later).',
  },
};

export class WebhookAnswer {
  @ApiProperty() received: boolean;
  @ApiProperty({ description: 'True when the event had been applied already.' }) duplicate: boolean;
}

export const NO_SUBSCRIPTION: SubscriptionSummary = {
  status: 'none',
  trial_ends_at: null,
  current_period_end: null,
  cancel_at_period_end: false,
  trial_used: false,
  offer: 'trial',
};

/** `offer` is BillingService's decision (the same rule as its 409), passed in. */
export const toSubscriptionSummary = (row: Subscription | null, offer: PlanOffer): SubscriptionSummary =>
  row
    ? {
        status: row.status,
        trial_ends_at: row.trialEndsAt?.toISOString() ?? null,
        current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
        cancel_at_period_end: row.cancelAtPeriodEnd,
        trial_used: row.hadTrial,
        offer,
      }
    : { ...NO_SUBSCRIPTION, offer };
