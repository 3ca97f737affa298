import { IsOptional, IsString, MaxLength } from 'class-validator';
import { Field } from '../common/field';
import type { Subscription } from './subscription.entity';

/** SPEC.md's checkout form posts a hidden price identifier; `priceId` is accepted too. */
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
}

export class TrialDto extends CheckoutDto {}

export interface SubscriptionSummary {
  status: string;
  trial_ends_at: string | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
}

export const NO_SUBSCRIPTION: SubscriptionSummary = {
  status: 'none',
  trial_ends_at: null,
  current_period_end: null,
  cancel_at_period_end: false,
};

export const toSubscriptionSummary = (row: Subscription | null): SubscriptionSummary =>
  row
    ? {
        status: row.status,
        trial_ends_at: row.trialEndsAt?.toISOString() ?? null,
        current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
        cancel_at_period_end: row.cancelAtPeriodEnd,
      }
    : NO_SUBSCRIPTION;
