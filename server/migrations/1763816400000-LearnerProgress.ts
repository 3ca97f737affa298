import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * What a learner's progress needs: a time zone per member (days are the member's days), one row per phrase
 * heard to its end, and the card as it was before each review answer, so that an answer can be undone.
 * Table API and plain ALTER TABLE, which SQLite and PostgreSQL both accept.
 */
export class LearnerProgress1763816400000 implements MigrationInterface {
  name = 'LearnerProgress1763816400000';

  async up(db: QueryRunner): Promise<void> {
    const postgres = db.connection.driver.options.type === 'postgres';
    const time = postgres ? 'timestamptz' : 'datetime';
    const real = postgres ? 'double precision' : 'real';
    await db.query(`ALTER TABLE "users" ADD COLUMN "time_zone" varchar(64)`);
    for (const column of [
      `"stability" ${real} NOT NULL DEFAULT 0`,
      `"difficulty" ${real} NOT NULL DEFAULT 0`,
      `"learning_steps" integer NOT NULL DEFAULT 0`,
      `"reps" integer NOT NULL DEFAULT 0`,
      `"lapses" integer NOT NULL DEFAULT 0`,
      `"last_review" ${time}`,
      `"version" integer NOT NULL DEFAULT 0`,
    ])
      await db.query(`ALTER TABLE "review_logs" ADD COLUMN ${column}`);
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
          { name: 'received_at', type: time },
        ],
        uniques: [{ name: 'UQ_listening_events_user_event', columnNames: ['user_id', 'event_id'] }],
        indices: [
          { name: 'IDX_listening_events_user_heard', columnNames: ['user_id', 'heard_at'] },
          { name: 'IDX_listening_events_book', columnNames: ['book_id', 'user_id'] },
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
    for (const column of [
      'stability',
      'difficulty',
      'learning_steps',
      'reps',
      'lapses',
      'last_review',
      'version',
    ])
      await db.query(`ALTER TABLE "review_logs" DROP COLUMN "${column}"`);
    await db.query(`ALTER TABLE "users" DROP COLUMN "time_zone"`);
  }
}
