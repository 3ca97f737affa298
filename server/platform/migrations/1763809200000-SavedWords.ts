import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Words a member saved from a phrase's glossary, each with its spaced-repetition card (FSRS). A word
 * points at its phrase (text and clip are not copied), so an edited phrase shows in it, and deleting the
 * phrase deletes the words saved from it. Table API: runs on SQLite and PostgreSQL alike.
 */
export class SavedWords1763809200000 implements MigrationInterface {
  name = 'SavedWords1763809200000';

  async up(db: QueryRunner): Promise<void> {
    const { time, real } = columnTypes(db);
    await db.createTable(
      new Table({
        name: 'saved_words',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'user_id', type: 'integer' },
          { name: 'phrase_id', type: 'integer' },
          { name: 'term', type: 'varchar', length: '200' },
          { name: 'meaning', type: 'varchar', length: '1000' },
          { name: 'created_at', type: time },
          // The FSRS card: when it is due, its memory state, and how often it was seen and forgotten.
          { name: 'due', type: time },
          { name: 'stability', type: real, default: 0 },
          { name: 'difficulty', type: real, default: 0 },
          { name: 'elapsed_days', type: 'integer', default: 0 },
          { name: 'scheduled_days', type: 'integer', default: 0 },
          { name: 'learning_steps', type: 'integer', default: 0 },
          { name: 'reps', type: 'integer', default: 0 },
          { name: 'lapses', type: 'integer', default: 0 },
          { name: 'state', type: 'integer', default: 0 },
          { name: 'last_review', type: time, isNullable: true },
          // Bumped by every answer: two answers sent at once for one card cannot both apply.
          { name: 'version', type: 'integer', default: 0 },
        ],
        uniques: [{ name: 'UQ_saved_words_user_phrase_term', columnNames: ['user_id', 'phrase_id', 'term'] }],
        indices: [{ name: 'IDX_saved_words_user_due', columnNames: ['user_id', 'due'] }],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['phrase_id'],
            referencedTableName: 'phrases',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.dropTable('saved_words');
  }
}
