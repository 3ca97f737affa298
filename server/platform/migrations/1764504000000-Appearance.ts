import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from './column-types';

/** A member's theme, text size and line spacing (server/accounts/users/appearance.entity.ts). Table API both databases take. */
export class Appearance1764504000000 implements MigrationInterface {
  name = 'Appearance1764504000000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    await db.createTable(
      new Table({
        name: 'appearance',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'theme', type: 'varchar', length: '8' },
          { name: 'text_size', type: 'integer' },
          { name: 'line_spacing', type: 'integer' },
          { name: 'updated_at', type: time },
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
    await db.dropTable('appearance');
  }
}
