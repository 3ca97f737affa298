import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalogue at scale (docs/catalogue.md): a book's CEFR level, and the normalised copies of its text
 * that the search compares (written by the application: lower case, accents removed). Plain ALTER TABLE
 * and CREATE INDEX, which both databases accept. The books already kept get their search text at the next
 * boot (BooksRepository.onApplicationBootstrap), from the one normaliser the application writes them with.
 */
export class BookSearch1763834400000 implements MigrationInterface {
  name = 'BookSearch1763834400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "books" ADD COLUMN "cefr" varchar(2)`);
    // Byte order for the title sort on PostgreSQL whatever the server's locale (a locale collation would
    // skip spaces); SQLite compares bytes already.
    const bytewise = db.connection.driver.options.type === 'postgres' ? ' COLLATE "C"' : '';
    await db.query(`ALTER TABLE "books" ADD COLUMN "title_key" varchar(400)${bytewise} NOT NULL DEFAULT ''`);
    await db.query(`ALTER TABLE "books" ADD COLUMN "search_text" text NOT NULL DEFAULT ''`);
    // Filters narrow by these; the newest-first order and the title order read an index, not a sort.
    await db.query(`CREATE INDEX "IDX_books_language" ON "books" ("language")`);
    await db.query(`CREATE INDEX "IDX_books_cefr" ON "books" ("cefr")`);
    await db.query(`CREATE INDEX "IDX_books_created_at" ON "books" ("created_at", "id")`);
    await db.query(`CREATE INDEX "IDX_books_title_key" ON "books" ("title_key", "id")`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const index of ['language', 'cefr', 'created_at', 'title_key'])
      await db.query(`DROP INDEX "IDX_books_${index}"`);
    for (const column of ['search_text', 'title_key', 'cefr'])
      await db.query(`ALTER TABLE "books" DROP COLUMN "${column}"`);
  }
}
