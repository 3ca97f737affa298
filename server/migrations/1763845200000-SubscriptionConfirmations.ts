import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Stripe subscription whose start the member was sent a confirmation mail for: Stripe tells of one
 * subscription in several events (and may repeat them), and the mail goes out once per subscription.
 * Plain ALTER TABLE, which both databases accept.
 */
export class SubscriptionConfirmations1763845200000 implements MigrationInterface {
  name = 'SubscriptionConfirmations1763845200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "subscriptions" ADD COLUMN "confirmed_subscription_id" varchar(255)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "subscriptions" DROP COLUMN "confirmed_subscription_id"`);
  }
}
