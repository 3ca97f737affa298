import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes, ID_COLUMN, timestampNow } from './column-types';

/**
 * Knowing which words a member knows (docs/word-status.md):
 * - `chapter_words`: each chapter's word forms (lower case, NFC) with their counts over its phrases'
 *   running words, and each form's key: its lemma when the language's word forms give exactly one, else
 *   the form itself. Written by the catalogue's owner in the same transaction as every phrase write; a
 *   book's coverage sums its chapters' rows. `book_id` rides along so that a book's rows are one index range;
 *   it has no foreign key (the chapter's cascades), so a phrase write never locks its book's row (a book's
 *   delete locks the book, then its chapters: the other order would deadlock on PostgreSQL).
 * - `word_statuses`: a member's status per language and key, "known" (a word they said they know, or one
 *   a "Mark the rest as known" set: its `batch_id`) or "new" (said so: kept with its time, so that an older
 *   setting sent later from an offline queue loses). No row is new too; "learning" comes from saved words.
 * - `word_status_batches`: each "Mark the rest as known", so that it can be undone as a whole.
 * Table API and plain SQL both databases take.
 */
export class WordStatus1764489600000 implements MigrationInterface {
  name = 'WordStatus1764489600000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    await db.createTable(
      new Table({
        name: 'chapter_words',
        columns: [
          { name: 'chapter_id', type: 'integer', isPrimary: true },
          { name: 'form', type: 'varchar', length: '100', isPrimary: true },
          { name: 'book_id', type: 'integer' },
          { name: 'word', type: 'varchar', length: '100' },
          { name: 'count', type: 'integer' },
        ],
        indices: [
          { name: 'IDX_chapter_words_book', columnNames: ['book_id', 'word'] },
          // The books holding a key, for the coverage of a member whose word changed (shiftCoverage).
          { name: 'IDX_chapter_words_word', columnNames: ['word', 'book_id'] },
        ],
        foreignKeys: [
          {
            columnNames: ['chapter_id'],
            referencedTableName: 'chapters',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await db.createTable(
      new Table({
        name: 'word_status_batches',
        columns: [
          ID_COLUMN,
          { name: 'user_id', type: 'integer' },
          { name: 'book_id', type: 'integer', isNullable: true },
          { name: 'chapter_no', type: 'integer' },
          { name: 'lang', type: 'varchar', length: '35' },
          { name: 'words', type: 'integer', default: 0 },
          timestampNow(time, 'created_at'),
        ],
        indices: [{ name: 'IDX_word_status_batches_user', columnNames: ['user_id'] }],
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
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    await db.createTable(
      new Table({
        name: 'word_statuses',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'lang', type: 'varchar', length: '35', isPrimary: true },
          { name: 'word', type: 'varchar', length: '100', isPrimary: true },
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'batch_id', type: 'integer', isNullable: true },
          { name: 'updated_at', type: time },
        ],
        indices: [{ name: 'IDX_word_statuses_batch', columnNames: ['batch_id'] }],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['batch_id'],
            referencedTableName: 'word_status_batches',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    // Coverage at the catalogue's size is read precomputed: per member and book, the running words, those
    // known and the keys not known; each status change shifts them in its own transaction, and a change of
    // the language's books has them computed again in the background (coverage_runs: when it changed,
    // when it was computed).
    // No foreign key to books, for the same reason as chapter_words: a deleted book's rows are left to the
    // member's next refresh of its language, and never read (the browse joins from the books).
    await db.createTable(
      new Table({
        name: 'book_coverage',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'book_id', type: 'integer', isPrimary: true },
          { name: 'lang', type: 'varchar', length: '35' },
          { name: 'running', type: 'integer' },
          { name: 'known', type: 'integer' },
          { name: 'unknown', type: 'integer' },
        ],
        indices: [
          { name: 'IDX_book_coverage_user_lang', columnNames: ['user_id', 'lang'] },
          // The languages members hold a changed book in (coverage-refresher.ts, booksChanged).
          { name: 'IDX_book_coverage_book_lang', columnNames: ['book_id', 'lang'] },
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
    await db.createTable(
      new Table({
        name: 'coverage_runs',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'lang', type: 'varchar', length: '35', isPrimary: true },
          { name: 'changed_at', type: time },
          { name: 'computed_at', type: time, isNullable: true },
          { name: 'claimed_until', type: time, isNullable: true },
        ],
        indices: [{ name: 'IDX_coverage_runs_lang', columnNames: ['lang'] }],
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
    for (const table of [
      'coverage_runs',
      'book_coverage',
      'word_statuses',
      'word_status_batches',
      'chapter_words',
    ])
      await db.dropTable(table);
  }
}
