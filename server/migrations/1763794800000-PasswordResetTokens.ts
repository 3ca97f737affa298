import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PasswordResetTokens1763794800000 implements MigrationInterface {
  name = 'PasswordResetTokens1763794800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE "password_reset_tokens" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "user_id" integer NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      "token_hash" varchar(64) NOT NULL,
      "expires_at" datetime NOT NULL,
      "used_at" datetime,
      "created_at" datetime NOT NULL
    )`);
    await db.query(
      `CREATE UNIQUE INDEX "UQ_password_reset_tokens_hash" ON "password_reset_tokens" ("token_hash")`,
    );
    await db.query(
      `CREATE INDEX "IDX_password_reset_tokens_user_created" ON "password_reset_tokens" ("user_id", "created_at")`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "password_reset_tokens"`);
  }
}
