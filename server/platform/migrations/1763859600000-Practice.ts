import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes, ID_COLUMN, timestampNow } from './column-types';

/**
 * The practice modes (docs/practice.md):
 * - `phrase_translations`: a phrase's translation per language (a BCP 47 tag), so a book can offer
 *   several at once; deleting the phrase deletes them.
 * - `users.speaks`: the languages a member reads, in order of preference, comma-separated ("en,pt-BR").
 * - `dictation_attempts`: every dictation a member typed, scored by the server.
 * - `phrase_marks`: a member's latest "Got it / Not sure / Lost" per phrase (one row per member and phrase).
 * - `saved_words.kind`: "word" or "phrase". Phrase cards share the words' table, ids and FSRS review; a
 *   phrase card has an empty term, so the unique (user, phrase, term) allows one per member and phrase.
 * Table API and plain SQL both databases take.
 */
export class Practice1763859600000 implements MigrationInterface {
  name = 'Practice1763859600000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    const cascade = (column: string, table: string) => ({
      columnNames: [column],
      referencedTableName: table,
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    });
    await db.createTable(
      new Table({
        name: 'phrase_translations',
        columns: [
          ID_COLUMN,
          { name: 'phrase_id', type: 'integer' },
          { name: 'language', type: 'varchar', length: '35' },
          { name: 'text', type: 'text' },
        ],
        uniques: [{ name: 'UQ_phrase_translations_phrase_language', columnNames: ['phrase_id', 'language'] }],
        foreignKeys: [cascade('phrase_id', 'phrases')],
      }),
    );
    await db.addColumn(
      'users',
      new TableColumn({ name: 'speaks', type: 'varchar', length: '200', isNullable: true }),
    );
    await db.createTable(
      new Table({
        name: 'dictation_attempts',
        columns: [
          ID_COLUMN,
          { name: 'user_id', type: 'integer' },
          { name: 'phrase_id', type: 'integer' },
          { name: 'typed', type: 'text' },
          { name: 'score', type: 'integer' },
          { name: 'strict', type: 'boolean', default: false },
          timestampNow(time, 'created_at'),
        ],
        indices: [
          { name: 'IDX_dictation_attempts_user_phrase', columnNames: ['user_id', 'phrase_id'] },
          { name: 'IDX_dictation_attempts_user_created', columnNames: ['user_id', 'created_at'] },
        ],
        foreignKeys: [cascade('user_id', 'users'), cascade('phrase_id', 'phrases')],
      }),
    );
    await db.createTable(
      new Table({
        name: 'phrase_marks',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'phrase_id', type: 'integer', isPrimary: true },
          { name: 'mark', type: 'varchar', length: '10' },
          { name: 'marked_at', type: time },
        ],
        indices: [{ name: 'IDX_phrase_marks_phrase_mark', columnNames: ['phrase_id', 'mark'] }],
        foreignKeys: [cascade('user_id', 'users'), cascade('phrase_id', 'phrases')],
      }),
    );
    await db.addColumn(
      'saved_words',
      new TableColumn({ name: 'kind', type: 'varchar', length: '10', default: "'word'" }),
    );
    await db.createIndex(
      'saved_words',
      new TableIndex({ name: 'IDX_saved_words_user_kind', columnNames: ['user_id', 'kind'] }),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.dropIndex('saved_words', 'IDX_saved_words_user_kind');
    await db.dropColumn('saved_words', 'kind');
    await db.dropTable('phrase_marks');
    await db.dropTable('dictation_attempts');
    await db.dropColumn('users', 'speaks');
    await db.dropTable('phrase_translations');
  }
}
