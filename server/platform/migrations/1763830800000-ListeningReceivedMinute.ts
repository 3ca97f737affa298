import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A raw query's date: PostgreSQL's driver gives a Date, SQLite the UTC text TypeORM wrote. */
const instantOf = (value: Date | string): Date =>
  value instanceof Date
    ? value
    : new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);

/** Rows read and written per step of the backfill, under every database's limit on bound parameters. */
const PAGE = 500;

/**
 * The minute (since 1970, by the server's clock) each listening event was received in. The replay ranking
 * counts at most one replay per member, phrase and minute of this, since the time a client reports can be
 * made up and the time the server received it cannot. Plain ALTER TABLE, which both databases accept; the
 * events already kept get theirs computed here, since date arithmetic differs between the two.
 */
export class ListeningReceivedMinute1763830800000 implements MigrationInterface {
  name = 'ListeningReceivedMinute1763830800000';

  async up(db: QueryRunner): Promise<void> {
    const postgres = db.connection.driver.options.type === 'postgres';
    const placeholder = (n: number) => (postgres ? `$${n}` : '?');
    await db.query(`ALTER TABLE "listening_events" ADD COLUMN "received_minute" integer NOT NULL DEFAULT 0`);
    for (let after = 0; ;) {
      // The query builder writes each database's placeholders; the migration imports no app helper.
      const rows = await db.manager
        .createQueryBuilder()
        .select('e.id', 'id')
        .addSelect('e.received_at', 'received_at')
        .from('listening_events', 'e')
        .where('e.id > :after', { after })
        .orderBy('e.id')
        .limit(PAGE)
        .getRawMany<{ id: number; received_at: Date | string }>();
      if (!rows.length) break;
      // A batch's events share their received_at, so a page takes a few updates, not one per row.
      const byMinute = new Map<number, number[]>();
      for (const row of rows) {
        const minute = Math.floor(instantOf(row.received_at).getTime() / 60_000);
        byMinute.set(minute, [...(byMinute.get(minute) ?? []), Number(row.id)]);
      }
      for (const [minute, ids] of byMinute)
        await db.query(
          `UPDATE "listening_events" SET "received_minute" = ${placeholder(1)} WHERE "id" IN (${ids
            .map((_, i) => placeholder(i + 2))
            .join(', ')})`,
          [minute, ...ids],
        );
      after = Number(rows.at(-1)!.id);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "listening_events" DROP COLUMN "received_minute"`);
  }
}
