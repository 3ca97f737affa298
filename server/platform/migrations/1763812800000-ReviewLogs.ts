import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from './column-types';

/** One row per answer in a review: the rating and the card as it was before, for undo and for statistics. */
export class ReviewLogs1763812800000 implements MigrationInterface {
  name = 'ReviewLogs1763812800000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    await db.createTable(
      new Table({
        name: 'review_logs',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'word_id', type: 'integer' },
          { name: 'user_id', type: 'integer' },
          { name: 'rating', type: 'integer' },
          // The card's state before this answer (0 new, 1 learning, 2 review, 3 relearning).
          { name: 'state', type: 'integer' },
          { name: 'due', type: time },
          { name: 'scheduled_days', type: 'integer', default: 0 },
          { name: 'elapsed_days', type: 'integer', default: 0 },
          { name: 'reviewed_at', type: time },
        ],
        indices: [{ name: 'IDX_review_logs_user_reviewed', columnNames: ['user_id', 'reviewed_at'] }],
        foreignKeys: [
          {
            columnNames: ['word_id'],
            referencedTableName: 'saved_words',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
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
    await db.dropTable('review_logs');
  }
}
