import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Staged imports: what an administrator uploaded and previewed, waiting to be committed or discarded. The
 * files live in STORAGE_DIR/imports/<id>/; this row says what they are. Table API: SQLite and PostgreSQL.
 */
export class Imports1763820000000 implements MigrationInterface {
  name = 'Imports1763820000000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    await db.createTable(
      new Table({
        name: 'imports',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          // 'chapter' (text and clips, or one recording) or 'book'.
          { name: 'kind', type: 'varchar', length: '16' },
          // 'staged', then 'committing' while one commit runs: a second one finds it taken.
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'chapter_id', type: 'integer', isNullable: true },
          // 'append' or 'replace' (the chapter's phrases).
          { name: 'mode', type: 'varchar', length: '16' },
          { name: 'created_by', type: 'integer', isNullable: true },
          { name: 'created_at', type: time },
          { name: 'updated_at', type: time },
          // The preview's rows and problems, as JSON.
          { name: 'manifest', type: 'text' },
        ],
        indices: [{ name: 'IDX_imports_created', columnNames: ['created_at'] }],
        foreignKeys: [
          {
            columnNames: ['chapter_id'],
            referencedTableName: 'chapters',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['created_by'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.dropTable('imports');
  }
}
