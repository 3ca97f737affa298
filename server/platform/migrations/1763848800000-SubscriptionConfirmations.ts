import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Stripe subscription whose start the member was sent a confirmation mail for: Stripe tells of one
 * subscription in several events (and may repeat them), and the mail goes out once per subscription.
 * Subscriptions that started before this migration count as confirmed: their next event (a renewal, a
 * card update) must not greet them as new. Plain ALTER TABLE and UPDATE, which both databases accept.
 */
export class SubscriptionConfirmations1763848800000 implements MigrationInterface {
  name = 'SubscriptionConfirmations1763848800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "subscriptions" ADD COLUMN "confirmed_subscription_id" varchar(255)`);
    await db.query(`UPDATE "subscriptions" SET "confirmed_subscription_id" = "stripe_subscription_id"`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "subscriptions" DROP COLUMN "confirmed_subscription_id"`);
  }
}
