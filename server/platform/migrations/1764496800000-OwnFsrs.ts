import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * A member's own FSRS parameters (docs/practice.md, "Your own FSRS"): the weights the optimiser computed
 * from their reviews (JSON, null until then or when it failed), how many reviews it read, when, and a claim
 * that keeps two instances from computing the same member at once. Table API both databases take.
 */
export class OwnFsrs1764496800000 implements MigrationInterface {
  name = 'OwnFsrs1764496800000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    await db.createTable(
      new Table({
        name: 'fsrs_parameters',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'weights', type: 'varchar', length: '2000', isNullable: true },
          { name: 'reviews', type: 'integer', default: 0 },
          { name: 'computed_at', type: time, isNullable: true },
          { name: 'claimed_until', type: time, isNullable: true },
        ],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.dropTable('fsrs_parameters');
  }
}
