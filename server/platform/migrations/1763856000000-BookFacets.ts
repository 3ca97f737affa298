import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalogue's facet counts and the difficulty filter (docs/catalogue.md, "Indexes"): one index holding
 * the three filtered columns, so that each facet's GROUP BY and each count reads a small index instead of
 * the books' rows, whose descriptions and sample texts make a scan of the table many megabytes at 10,000
 * books. Difficulty first: it is the one filter no other index serves.
 */
export class BookFacets1763856000000 implements MigrationInterface {
  name = 'BookFacets1763856000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX "IDX_books_facets" ON "books" ("difficulty", "cefr", "language")`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX "IDX_books_facets"`);
  }
}
