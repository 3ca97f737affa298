import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Words a member deleted, kept for a few minutes so that Undo can bring them back: the word's row and its
 * review log rows, as they were (ids included), in `snapshot` (JSON). The word itself leaves saved_words at
 * once, so lists, reviews, exports and stats need no filter; a restore inserts the rows again with their
 * ids. Rows past the undo window are purged (server/learning/words/word-trash.ts). Table API: both databases.
 */
export class WordTrash1763841600000 implements MigrationInterface {
  name = 'WordTrash1763841600000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    await db.createTable(
      new Table({
        name: 'word_trash',
        columns: [
          { name: 'word_id', type: 'integer', isPrimary: true },
          { name: 'user_id', type: 'integer' },
          { name: 'deleted_at', type: time },
          { name: 'snapshot', type: 'text' },
        ],
        indices: [{ name: 'IDX_word_trash_deleted_at', columnNames: ['deleted_at'] }],
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
    await db.dropTable('word_trash');
  }
}
