import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A chapter's length: the sum of its phrases' clip durations, kept by the catalogue's repository on every
 * write of the chapter's phrases (under the chapter's lock), so a book's length is a sum over its few
 * chapters rather than over every phrase (docs/catalogue.md, "A book's length"). The chapters already
 * kept are measured here, in the same statement on both databases.
 */
export class ChapterLength1763845200000 implements MigrationInterface {
  name = 'ChapterLength1763845200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "chapters" ADD COLUMN "length_ms" integer NOT NULL DEFAULT 0`);
    await db.query(
      `UPDATE "chapters" SET "length_ms" = COALESCE(
         (SELECT SUM("p"."audio_ms") FROM "phrases" "p" WHERE "p"."chapter_id" = "chapters"."id"), 0)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "chapters" DROP COLUMN "length_ms"`);
  }
}
