import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes, ID_COLUMN, timestampNow } from './column-types';

/**
 * Lookups for any word (docs/dictionaries.md):
 * - `dictionaries`: one bilingual dictionary per row, for a pair of languages. `generation` says which of
 *   its entries are live: an import or a replacement writes a new generation in batches, then moves the row
 *   to it in one short update, so a lookup never sees half a dictionary and SQLite's one writer is never
 *   held for the whole file. Generation 0 is a first import not finished yet (not listed, not looked up).
 * - `dictionary_entries`: headword, its case- and accent-folded key, definition (plain text) and part of
 *   speech. Both lookups are one index range: (dictionary_id, generation, headword) and (…, folded).
 * - `word_forms`: each inflected form of a language to one of its lemmas ("casas" → casa, casar), from an
 *   expanded Hunspell dictionary (`origin` "hunspell") or a list of irregular forms ("list"); each origin
 *   is replaced as a whole, the same way (generations).
 * - `saved_words.source`: where a card's meaning came from, "glossary" or "dictionary", and which
 *   dictionary (`source_name`).
 * Table API and plain SQL both databases take.
 */
export class Dictionaries1764403200000 implements MigrationInterface {
  name = 'Dictionaries1764403200000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    await db.createTable(
      new Table({
        name: 'dictionaries',
        columns: [
          ID_COLUMN,
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'source', type: 'varchar', length: '35' },
          { name: 'target', type: 'varchar', length: '35' },
          { name: 'format', type: 'varchar', length: '10' },
          { name: 'entries', type: 'integer', default: 0 },
          { name: 'licence', type: 'varchar', length: '1000', isNullable: true },
          { name: 'attribution', type: 'varchar', length: '1000', isNullable: true },
          { name: 'generation', type: 'integer', default: 0 },
          timestampNow(time, 'created_at'),
          timestampNow(time, 'updated_at'),
        ],
        indices: [{ name: 'IDX_dictionaries_pair', columnNames: ['source', 'target'] }],
      }),
    );
    await db.createTable(
      new Table({
        name: 'dictionary_entries',
        columns: [
          ID_COLUMN,
          { name: 'dictionary_id', type: 'integer' },
          { name: 'generation', type: 'integer' },
          { name: 'headword', type: 'varchar', length: '200' },
          { name: 'folded', type: 'varchar', length: '200' },
          { name: 'definition', type: 'text' },
          { name: 'pos', type: 'varchar', length: '40', isNullable: true },
        ],
        indices: [
          {
            name: 'IDX_dictionary_entries_headword',
            columnNames: ['dictionary_id', 'generation', 'headword'],
          },
          { name: 'IDX_dictionary_entries_folded', columnNames: ['dictionary_id', 'generation', 'folded'] },
        ],
        foreignKeys: [
          {
            columnNames: ['dictionary_id'],
            referencedTableName: 'dictionaries',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await db.createTable(
      new Table({
        name: 'word_forms',
        columns: [
          ID_COLUMN,
          { name: 'lang', type: 'varchar', length: '35' },
          { name: 'origin', type: 'varchar', length: '10' },
          { name: 'generation', type: 'integer' },
          { name: 'form', type: 'varchar', length: '200' },
          { name: 'lemma', type: 'varchar', length: '200' },
        ],
        indices: [{ name: 'IDX_word_forms_form', columnNames: ['lang', 'form'] }],
      }),
    );
    // Which generation of each language's forms is live, per origin (the same swap as dictionaries).
    await db.createTable(
      new Table({
        name: 'word_form_sets',
        columns: [
          { name: 'lang', type: 'varchar', length: '35', isPrimary: true },
          { name: 'origin', type: 'varchar', length: '10', isPrimary: true },
          { name: 'generation', type: 'integer' },
          { name: 'forms', type: 'integer', default: 0 },
          { name: 'lemmas', type: 'integer', default: 0 },
          timestampNow(time, 'updated_at'),
        ],
      }),
    );
    await db.query(`ALTER TABLE "saved_words" ADD COLUMN "source" varchar(12) NOT NULL DEFAULT 'glossary'`);
    await db.query(`ALTER TABLE "saved_words" ADD COLUMN "source_name" varchar(200) NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const column of ['source_name', 'source'])
      await db.query(`ALTER TABLE "saved_words" DROP COLUMN "${column}"`);
    for (const table of ['word_form_sets', 'word_forms', 'dictionary_entries', 'dictionaries'])
      await db.dropTable(table);
  }
}
