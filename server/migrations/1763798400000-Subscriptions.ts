import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Subscriptions1763798400000 implements MigrationInterface {
  name = 'Subscriptions1763798400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE "subscriptions" (
      "user_id" integer PRIMARY KEY NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      "stripe_customer_id" varchar(255),
      "stripe_subscription_id" varchar(255),
      "status" varchar(32) NOT NULL DEFAULT ('none'),
      "trial_ends_at" datetime,
      "current_period_end" datetime,
      "cancel_at_period_end" boolean NOT NULL DEFAULT (0),
      "had_trial" boolean NOT NULL DEFAULT (0),
      "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
    )`);
    await db.query(
      `CREATE UNIQUE INDEX "UQ_subscriptions_customer" ON "subscriptions" ("stripe_customer_id")`,
    );
    await db.query(`CREATE TABLE "stripe_events" (
      "id" varchar(255) PRIMARY KEY NOT NULL,
      "type" varchar(100) NOT NULL,
      "received_at" datetime NOT NULL DEFAULT (datetime('now'))
    )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "stripe_events"`);
    await db.query(`DROP TABLE "subscriptions"`);
  }
}
