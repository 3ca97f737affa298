import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A chapter import whose recording is being aligned to its text runs as a job (docs/import.md, "A long
 * recording is aligned as a job"): the import's row says how far it is (`progress`, `eta_s`) and which
 * instance runs it until when (`lease_owner`, `lease_until_ms`), as the audiobook builds do. Plain SQL
 * both databases take.
 */
export class ImportJobs1764316800000 implements MigrationInterface {
  name = 'ImportJobs1764316800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "imports" ADD COLUMN "progress" integer NULL`);
    await db.query(`ALTER TABLE "imports" ADD COLUMN "eta_s" integer NULL`);
    await db.query(`ALTER TABLE "imports" ADD COLUMN "lease_owner" varchar(64) NULL`);
    await db.query(`ALTER TABLE "imports" ADD COLUMN "lease_until_ms" bigint NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const column of ['lease_until_ms', 'lease_owner', 'eta_s', 'progress'])
      await db.query(`ALTER TABLE "imports" DROP COLUMN "${column}"`);
  }
}
