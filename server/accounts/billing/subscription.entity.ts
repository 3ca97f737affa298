import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A member's plan as Stripe last told us (through webhooks). Members who never subscribed have no row. */
@Entity('subscriptions')
export class Subscription {
  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'stripe_customer_id', type: 'varchar', length: 255, nullable: true })
  stripeCustomerId: string | null;

  @Column({ name: 'stripe_subscription_id', type: 'varchar', length: 255, nullable: true })
  stripeSubscriptionId: string | null;

  /** Stripe's subscription status (trialing, active, past_due, canceled, …), or "none". */
  @Column({ type: 'varchar', length: 32, default: 'none' })
  status: string;

  @Column({ name: 'trial_ends_at', type: Date, nullable: true })
  trialEndsAt: Date | null;

  @Column({ name: 'current_period_end', type: Date, nullable: true })
  currentPeriodEnd: Date | null;

  @Column({ name: 'cancel_at_period_end', type: 'boolean', default: false })
  cancelAtPeriodEnd: boolean;

  /** Once a member has had the free trial, Try for $0.00 is refused. */
  @Column({ name: 'had_trial', type: 'boolean', default: false })
  hadTrial: boolean;

  /**
   * The Stripe subscription whose start was confirmed by mail. Written only by the claim in
   * BillingService (a conditional UPDATE), never by a save, which could put back a value read earlier.
   */
  @Column({
    name: 'confirmed_subscription_id',
    type: 'varchar',
    length: 255,
    nullable: true,
    insert: false,
    update: false,
  })
  confirmedSubscriptionId: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
