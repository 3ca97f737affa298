import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Where each member is in each book. The phrase itself is stored, not its number: positions shift when
 * phrases are reordered, deleted or imported. Written with TypeORM's Table API so that it runs on SQLite
 * and PostgreSQL alike.
 */
export class ReadingProgress1763805600000 implements MigrationInterface {
  name = 'ReadingProgress1763805600000';

  async up(db: QueryRunner): Promise<void> {
    const { time, real } = columnTypes(db);
    await db.createTable(
      new Table({
        name: 'reading_progress',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'user_id', type: 'integer' },
          { name: 'book_id', type: 'integer' },
          { name: 'chapter_id', type: 'integer' },
          // Null once the phrase is deleted: the member resumes at the start of the chapter.
          { name: 'phrase_id', type: 'integer', isNullable: true },
          { name: 'speed', type: real, default: 1 },
          { name: 'updated_at', type: time },
        ],
        uniques: [{ name: 'UQ_reading_progress_user_book', columnNames: ['user_id', 'book_id'] }],
        indices: [{ name: 'IDX_reading_progress_user_updated', columnNames: ['user_id', 'updated_at'] }],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['book_id'],
            referencedTableName: 'books',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['chapter_id'],
            referencedTableName: 'chapters',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['phrase_id'],
            referencedTableName: 'phrases',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.dropTable('reading_progress');
  }
}
