import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

// Date columns say `type: Date`, which each driver maps itself (datetime on SQLite, timestamp on
// PostgreSQL, where the migration makes them timestamptz), rather than SQLite's 'datetime'.

/** A member's place in one book: the chapter and the phrase, and the speed they listen at. */
@Entity('reading_progress')
export class ReadingProgress {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'book_id', type: 'integer' })
  bookId: number;

  @Column({ name: 'chapter_id', type: 'integer' })
  chapterId: number;

  @Column({ name: 'phrase_id', type: 'integer', nullable: true })
  phraseId: number | null;

  @Column({ type: 'real', default: 1 })
  speed: number;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
