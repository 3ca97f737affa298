import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes, ID_COLUMN } from './column-types';

export class PasswordResetTokens1763794800000 implements MigrationInterface {
  name = 'PasswordResetTokens1763794800000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    await db.createTable(
      new Table({
        name: 'password_reset_tokens',
        columns: [
          ID_COLUMN,
          { name: 'user_id', type: 'integer' },
          { name: 'token_hash', type: 'varchar', length: '64' },
          { name: 'expires_at', type: time },
          { name: 'used_at', type: time, isNullable: true },
          { name: 'created_at', type: time },
        ],
        indices: [
          { name: 'UQ_password_reset_tokens_hash', columnNames: ['token_hash'], isUnique: true },
          { name: 'IDX_password_reset_tokens_user_created', columnNames: ['user_id', 'created_at'] },
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
    await db.dropTable('password_reset_tokens');
  }
}
