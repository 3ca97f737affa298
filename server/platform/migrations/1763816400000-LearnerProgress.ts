import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from './column-types';

/** 15 minutes: the period stats are counted in. A copy, so the migration never changes with the app. */
const QUARTER_MS = 15 * 60 * 1000;

/** A raw query's date: PostgreSQL's driver gives a Date, SQLite the UTC text TypeORM wrote. */
const instantOf = (value: Date | string): Date =>
  value instanceof Date
    ? value
    : new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);

/**
 * What a learner's progress needs: a time zone per member (days are the member's days), one row per phrase
 * heard to its end, and the card as it was before each review answer, so that an answer can be undone.
 * Table API and plain ALTER TABLE, which SQLite and PostgreSQL both accept.
 */
export class LearnerProgress1763816400000 implements MigrationInterface {
  name = 'LearnerProgress1763816400000';

  async up(db: QueryRunner): Promise<void> {
    const { time, real } = columnTypes(db);
    await db.query(`ALTER TABLE "users" ADD COLUMN "time_zone" varchar(64)`);
    for (const column of [
      `"stability" ${real} NOT NULL DEFAULT 0`,
      `"difficulty" ${real} NOT NULL DEFAULT 0`,
      `"learning_steps" integer NOT NULL DEFAULT 0`,
      `"reps" integer NOT NULL DEFAULT 0`,
      `"lapses" integer NOT NULL DEFAULT 0`,
      `"last_review" ${time}`,
      `"version" integer NOT NULL DEFAULT 0`,
      // The 15-minute period of the answer since 1970 (see heard_quarter below).
      `"reviewed_quarter" integer NOT NULL DEFAULT 0`,
    ])
      await db.query(`ALTER TABLE "review_logs" ADD COLUMN ${column}`);
    // Answers given before this migration get their period, computed here (date arithmetic differs
    // between the two databases); the query builder writes each one's placeholders.
    const answers = (await db.query(`SELECT "id", "reviewed_at" FROM "review_logs"`)) as Array<{
      id: number;
      reviewed_at: Date | string;
    }>;
    for (const answer of answers)
      await db.manager
        .createQueryBuilder()
        .update('review_logs')
        .set({ reviewed_quarter: Math.floor(instantOf(answer.reviewed_at).getTime() / QUARTER_MS) })
        .where('id = :id', { id: answer.id })
        .execute();
    // The cascades from a deleted phrase or word, and the stats by period, each use an index.
    await db.createIndex(
      'review_logs',
      new TableIndex({ name: 'IDX_review_logs_word', columnNames: ['word_id'] }),
    );
    await db.createIndex(
      'review_logs',
      new TableIndex({ name: 'IDX_review_logs_user_quarter', columnNames: ['user_id', 'reviewed_quarter'] }),
    );
    await db.createIndex(
      'saved_words',
      new TableIndex({ name: 'IDX_saved_words_phrase', columnNames: ['phrase_id'] }),
    );
    await db.createTable(
      new Table({
        name: 'listening_events',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'user_id', type: 'integer' },
          // The client's UUID: a retried batch carries the same ids, and the unique index drops them.
          { name: 'event_id', type: 'varchar', length: '36' },
          { name: 'phrase_id', type: 'integer' },
          // Kept beside the phrase so that a book's figures need no join through its chapters.
          { name: 'book_id', type: 'integer' },
          { name: 'chapter_id', type: 'integer' },
          { name: 'ms', type: 'integer' },
          { name: 'heard_at', type: time },
          // The 15-minute period since 1970 the phrase was heard in. Every time zone's midnight falls on
          // such a boundary, so stats sum these periods in SQL (portably) and the member's days are made
          // of whole periods.
          { name: 'heard_quarter', type: 'integer' },
          { name: 'received_at', type: time },
        ],
        uniques: [{ name: 'UQ_listening_events_user_event', columnNames: ['user_id', 'event_id'] }],
        indices: [
          { name: 'IDX_listening_events_user_quarter', columnNames: ['user_id', 'heard_quarter'] },
          { name: 'IDX_listening_events_book', columnNames: ['book_id', 'user_id'] },
          { name: 'IDX_listening_events_phrase', columnNames: ['phrase_id'] },
          { name: 'IDX_listening_events_chapter', columnNames: ['chapter_id'] },
        ],
        foreignKeys: ['user', 'phrase', 'book', 'chapter'].map((name) => ({
          columnNames: [`${name}_id`],
          referencedTableName: `${name}s`,
          referencedColumnNames: ['id'],
          onDelete: 'CASCADE',
        })),
      }),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.dropTable('listening_events');
    await db.dropIndex('saved_words', 'IDX_saved_words_phrase');
    await db.dropIndex('review_logs', 'IDX_review_logs_user_quarter');
    await db.dropIndex('review_logs', 'IDX_review_logs_word');
    for (const column of [
      'stability',
      'difficulty',
      'learning_steps',
      'reps',
      'lapses',
      'last_review',
      'version',
      'reviewed_quarter',
    ])
      await db.query(`ALTER TABLE "review_logs" DROP COLUMN "${column}"`);
    await db.query(`ALTER TABLE "users" DROP COLUMN "time_zone"`);
  }
}
