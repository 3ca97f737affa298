import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { ID_COLUMN } from './column-types';

/**
 * Rate-limit and login-lockout hits, in the database so that every instance counts the same ones. Times
 * are milliseconds since 1970 from the application's clock (the tests move it), as bigint on both.
 */
export class SharedRateLimits1763823600000 implements MigrationInterface {
  name = 'SharedRateLimits1763823600000';

  async up(db: QueryRunner): Promise<void> {
    await db.createTable(
      new Table({
        name: 'rate_hits',
        columns: [
          ID_COLUMN,
          // SHA-256 of the window's name and its key (an address, an email, a device token).
          { name: 'key_hash', type: 'varchar', length: '64' },
          { name: 'at_ms', type: 'bigint' },
        ],
        indices: [
          { name: 'IDX_rate_hits_key_at', columnNames: ['key_hash', 'at_ms'] },
          { name: 'IDX_rate_hits_at', columnNames: ['at_ms'] },
        ],
      }),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.dropTable('rate_hits');
  }
}
