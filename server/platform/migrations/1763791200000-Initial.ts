import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes, ID_COLUMN, timestampNow } from './column-types';

/**
 * The catalogue and its accounts. Table API, so that one migration gives each database its own types (see
 * column-types.ts); on SQLite the result is the schema this migration has always created.
 */
export class Initial1763791200000 implements MigrationInterface {
  name = 'Initial1763791200000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    const stamps = [timestampNow(time, 'created_at'), timestampNow(time, 'updated_at')];
    const parent = (table: string, column: string) => ({
      columnNames: [column],
      referencedTableName: table,
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    });
    await db.createTable(
      new Table({
        name: 'users',
        columns: [
          ID_COLUMN,
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'email', type: 'varchar', length: '254' },
          { name: 'password_hash', type: 'varchar', length: '255' },
          { name: 'user_type', type: 'integer', default: 2 },
          { name: 'user_role_id', type: 'integer', default: 2 },
          { name: 'token_version', type: 'integer', default: 0 },
          ...stamps,
        ],
        checks: [{ name: 'CHK_users_user_type', expression: `"user_type" IN (1, 2)` }],
        indices: [{ name: 'UQ_users_email', columnNames: ['email'], isUnique: true }],
      }),
    );
    await db.createTable(
      new Table({
        name: 'books',
        columns: [
          ID_COLUMN,
          { name: 'book_code', type: 'varchar', length: '120' },
          { name: 'title', type: 'varchar', length: '200' },
          { name: 'author', type: 'varchar', length: '200' },
          { name: 'narrated_by', type: 'varchar', length: '200' },
          { name: 'description', type: 'text' },
          { name: 'difficulty', type: 'varchar', length: '6' },
          { name: 'hours', type: 'integer' },
          { name: 'minutes', type: 'integer' },
          { name: 'cover_path', type: 'varchar', length: '255' },
          { name: 'sample_audio_path', type: 'varchar', length: '255' },
          { name: 'sample_audio_ms', type: 'integer', isNullable: true },
          { name: 'sample_text', type: 'text' },
          ...stamps,
        ],
        checks: [
          { name: 'CHK_books_difficulty', expression: `"difficulty" IN ('Easy', 'Medium', 'Hard')` },
          { name: 'CHK_books_hours', expression: `"hours" >= 0` },
          { name: 'CHK_books_minutes', expression: `"minutes" BETWEEN 0 AND 59` },
        ],
        indices: [
          { name: 'UQ_books_book_code', columnNames: ['book_code'], isUnique: true },
          { name: 'IDX_books_title', columnNames: ['title'] },
        ],
      }),
    );
    await db.createTable(
      new Table({
        name: 'chapters',
        columns: [
          ID_COLUMN,
          { name: 'book_id', type: 'integer' },
          { name: 'title', type: 'varchar', length: '200' },
          { name: 'chapter_no', type: 'integer' },
          ...stamps,
        ],
        checks: [{ name: 'CHK_chapters_chapter_no', expression: `"chapter_no" > 0` }],
        indices: [{ name: 'UQ_chapters_book_no', columnNames: ['book_id', 'chapter_no'], isUnique: true }],
        foreignKeys: [parent('books', 'book_id')],
      }),
    );
    await db.createTable(
      new Table({
        name: 'phrases',
        columns: [
          ID_COLUMN,
          { name: 'chapter_id', type: 'integer' },
          { name: 'position', type: 'integer' },
          { name: 'phrase', type: 'text' },
          { name: 'dictionary', type: 'text' },
          { name: 'audio_path', type: 'varchar', length: '255' },
          { name: 'audio_ms', type: 'integer', isNullable: true },
          ...stamps,
        ],
        checks: [{ name: 'CHK_phrases_position', expression: `"position" > 0` }],
        indices: [{ name: 'IDX_phrases_chapter_position', columnNames: ['chapter_id', 'position'] }],
        foreignKeys: [parent('chapters', 'chapter_id')],
      }),
    );
    await db.createTable(
      new Table({
        name: 'app_meta',
        columns: [
          { name: 'key', type: 'varchar', length: '64', isPrimary: true },
          { name: 'value', type: 'text' },
        ],
      }),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['app_meta', 'phrases', 'chapters', 'books', 'users']) await db.dropTable(table);
  }
}
