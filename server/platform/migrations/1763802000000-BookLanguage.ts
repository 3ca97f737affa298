import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The language a book is written in (a BCP 47 tag such as "fr"), for lang attributes and search engines. */
export class BookLanguage1763802000000 implements MigrationInterface {
  name = 'BookLanguage1763802000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "books" ADD COLUMN "language" varchar(35)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "books" DROP COLUMN "language"`);
  }
}
