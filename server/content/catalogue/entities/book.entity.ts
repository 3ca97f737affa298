import {
  Column,
  CreateDateColumn,
  Entity,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  VirtualColumn,
} from 'typeorm';
import type { Chapter } from './chapter.entity';

import type { CefrLevel, Difficulty } from '../book-levels';

export { CEFR_LEVELS, DIFFICULTIES, type CefrLevel, type Difficulty } from '../book-levels';

/**
 * The length of a book's clips, in ms, in SQL: the sum of its chapters' lengths (each kept by the
 * catalogue's repository, content/catalogue/repository/chapter-length.ts), NULL for a book without chapters. A
 * few index reads per book, so a page of books or the catalogue's shortest-first order can ask for it.
 */
export const bookClipsSql = (alias: string) =>
  `SELECT SUM(bl.length_ms) FROM chapters bl WHERE bl.book_id = ${alias}.id`;

const nullableNumber = {
  to: (value: unknown) => value,
  // PostgreSQL answers a SUM as a bigint, which node-pg reads as a string.
  from: (value: unknown) => (value === null || value === undefined ? null : Number(value)),
};

@Entity('books')
export class Book {
  @PrimaryGeneratedColumn()
  id: number;

  /** Public slug, made from the title once and never changed, so shared links keep working. */
  @Column({ name: 'book_code', type: 'varchar', length: 120 })
  bookCode: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 200 })
  author: string;

  @Column({ name: 'narrated_by', type: 'varchar', length: 200 })
  narratedBy: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'varchar', length: 6 })
  difficulty: Difficulty;

  /** The length the administrator typed; shown only while the book has no clips (content/catalogue/book-response.ts, bookLength). */
  @Column({ type: 'integer' })
  hours: number;

  @Column({ type: 'integer' })
  minutes: number;

  /** How long the book's clips last, read with every book (never written); null without chapters. */
  @VirtualColumn({ type: 'integer', query: bookClipsSql, transformer: nullableNumber })
  clipsMs?: number | null;

  /** Media key of the cover, relative to the media folder, without its size suffix (covers/<random>). */
  @Column({ name: 'cover_path', type: 'varchar', length: 255 })
  coverPath: string;

  @Column({ name: 'sample_audio_path', type: 'varchar', length: 255 })
  sampleAudioPath: string;

  @Column({ name: 'sample_audio_ms', type: 'integer', nullable: true })
  sampleAudioMs: number | null;

  @Column({ name: 'sample_text', type: 'text' })
  sampleText: string;

  /** BCP 47 tag of the language the book is written in ("fr", "pt-PT"), when the administrator gave one. */
  @Column({ type: 'varchar', length: 35, nullable: true })
  language: string | null;

  /** The CEFR level a learner needs, when the administrator gave one. */
  @Column({ type: 'varchar', length: 2, nullable: true })
  cefr: CefrLevel | null;

  /** The title as the search and the title order compare it (content/catalogue/search-key.ts); kept by BooksRepository. */
  @Column({ name: 'title_key', type: 'varchar', length: 400, select: false })
  titleKey?: string;

  /** Title, author, narrator and description as the search compares them; never read back. */
  @Column({ name: 'search_text', type: 'text', select: false })
  searchText?: string;

  @OneToMany('Chapter', 'book')
  chapters?: Chapter[];

  @CreateDateColumn({ name: 'created_at', type: Date })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
