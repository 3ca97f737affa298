import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dateFromDb } from '../database/db-dates';
import { sql } from '../database/sql';
import { receivedMinuteOf } from '../listening/received-minute';

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
    await db.query(`ALTER TABLE "listening_events" ADD COLUMN "received_minute" integer NOT NULL DEFAULT 0`);
    for (let after = 0; ;) {
      const rows = await sql<Array<{ id: number; received_at: Date | string }>>(
        db.manager,
        `SELECT id, received_at FROM listening_events WHERE id > ? ORDER BY id LIMIT ${PAGE}`,
        [after],
      );
      if (!rows.length) break;
      // A batch's events share their received_at, so a page takes a few updates, not one per row.
      const byMinute = new Map<number, number[]>();
      for (const row of rows) {
        const minute = receivedMinuteOf(dateFromDb(row.received_at));
        byMinute.set(minute, [...(byMinute.get(minute) ?? []), Number(row.id)]);
      }
      for (const [minute, ids] of byMinute)
        await sql(
          db.manager,
          `UPDATE listening_events SET received_minute = ? WHERE id IN (${ids.map(() => '?').join(', ')})`,
          [minute, ...ids],
        );
      after = Number(rows.at(-1)!.id);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE "listening_events" DROP COLUMN "received_minute"`);
  }
}
