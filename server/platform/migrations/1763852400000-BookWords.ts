import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalogue's search words (docs/catalogue.md, "Search"): each book's distinct normalised words, one
 * row each, so that a search word is a range of the primary key's index (`word >= lo AND word < hi`)
 * instead of a LIKE that reads every book. The word is compared byte by byte on both databases: SQLite
 * compares bytes already, PostgreSQL is told to (COLLATE "C"), whatever the server's locale. Words are
 * cut to 64 characters by the application. On SQLite the table is WITHOUT ROWID: the primary key is the
 * table, not a second copy of it. The index on book_id serves a book's rewrite, the cascade of its
 * delete, and the boot's look for books without words. The words are written at the next boot
 * (BooksRepository.onApplicationBootstrap), by the one normaliser the application searches with.
 */
export class BookWords1763852400000 implements MigrationInterface {
  name = 'BookWords1763852400000';

  async up(db: QueryRunner): Promise<void> {
    const postgres = db.connection.driver.options.type === 'postgres';
    await db.query(
      `CREATE TABLE "book_words" (
        "word" varchar(64)${postgres ? ' COLLATE "C"' : ''} NOT NULL,
        "book_id" integer NOT NULL,
        CONSTRAINT "PK_book_words" PRIMARY KEY ("word", "book_id"),
        CONSTRAINT "FK_book_words_book_id" FOREIGN KEY ("book_id") REFERENCES "books" ("id") ON DELETE CASCADE
      )${postgres ? '' : ' WITHOUT ROWID'}`,
    );
    await db.query(`CREATE INDEX "IDX_book_words_book_id" ON "book_words" ("book_id")`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "book_words"`);
  }
}
