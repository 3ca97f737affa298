import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1763791200000 implements MigrationInterface {
  name = 'Initial1763791200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE "users" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "name" varchar(100) NOT NULL,
      "email" varchar(254) NOT NULL,
      "password_hash" varchar(255) NOT NULL,
      "user_type" integer NOT NULL DEFAULT (2) CHECK ("user_type" IN (1, 2)),
      "user_role_id" integer NOT NULL DEFAULT (2),
      "token_version" integer NOT NULL DEFAULT (0),
      "created_at" datetime NOT NULL DEFAULT (datetime('now')),
      "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
    )`);
    await db.query(`CREATE UNIQUE INDEX "UQ_users_email" ON "users" ("email")`);

    await db.query(`CREATE TABLE "books" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "book_code" varchar(120) NOT NULL,
      "title" varchar(200) NOT NULL,
      "author" varchar(200) NOT NULL,
      "narrated_by" varchar(200) NOT NULL,
      "description" text NOT NULL,
      "difficulty" varchar(6) NOT NULL CHECK ("difficulty" IN ('Easy', 'Medium', 'Hard')),
      "hours" integer NOT NULL CHECK ("hours" >= 0),
      "minutes" integer NOT NULL CHECK ("minutes" BETWEEN 0 AND 59),
      "cover_path" varchar(255) NOT NULL,
      "sample_audio_path" varchar(255) NOT NULL,
      "sample_audio_ms" integer,
      "sample_text" text NOT NULL,
      "created_at" datetime NOT NULL DEFAULT (datetime('now')),
      "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
    )`);
    await db.query(`CREATE UNIQUE INDEX "UQ_books_book_code" ON "books" ("book_code")`);
    await db.query(`CREATE INDEX "IDX_books_title" ON "books" ("title")`);

    await db.query(`CREATE TABLE "chapters" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "book_id" integer NOT NULL REFERENCES "books" ("id") ON DELETE CASCADE,
      "title" varchar(200) NOT NULL,
      "chapter_no" integer NOT NULL CHECK ("chapter_no" > 0),
      "created_at" datetime NOT NULL DEFAULT (datetime('now')),
      "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
    )`);
    await db.query(`CREATE UNIQUE INDEX "UQ_chapters_book_no" ON "chapters" ("book_id", "chapter_no")`);

    await db.query(`CREATE TABLE "phrases" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "chapter_id" integer NOT NULL REFERENCES "chapters" ("id") ON DELETE CASCADE,
      "position" integer NOT NULL CHECK ("position" > 0),
      "phrase" text NOT NULL,
      "dictionary" text NOT NULL,
      "audio_path" varchar(255) NOT NULL,
      "audio_ms" integer,
      "created_at" datetime NOT NULL DEFAULT (datetime('now')),
      "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
    )`);
    await db.query(`CREATE INDEX "IDX_phrases_chapter_position" ON "phrases" ("chapter_id", "position")`);

    await db.query(`CREATE TABLE "app_meta" ("key" varchar(64) PRIMARY KEY NOT NULL, "value" text NOT NULL)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE "app_meta"`);
    await db.query(`DROP TABLE "phrases"`);
    await db.query(`DROP TABLE "chapters"`);
    await db.query(`DROP TABLE "books"`);
    await db.query(`DROP TABLE "users"`);
  }
}
