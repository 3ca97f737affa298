import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Media that a replace or a delete let go of, kept for a grace period before it is deleted for good, so a
 * backup that took its database snapshot just before can still copy every file the snapshot names. One
 * row per stored file (a cover's sizes are three rows). Times are milliseconds since 1970, bigint on both.
 */
export class MediaTrash1763827200000 implements MigrationInterface {
  name = 'MediaTrash1763827200000';

  async up(db: QueryRunner): Promise<void> {
    await db.createTable(
      new Table({
        name: 'media_trash',
        columns: [
          { name: 'key', type: 'varchar', length: '512', isPrimary: true },
          { name: 'removed_at_ms', type: 'bigint' },
        ],
        indices: [{ name: 'IDX_media_trash_removed_at', columnNames: ['removed_at_ms'] }],
      }),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.dropTable('media_trash');
  }
}
