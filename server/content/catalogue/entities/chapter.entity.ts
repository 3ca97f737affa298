import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Book } from './book.entity';
import type { Phrase } from './phrase.entity';

@Entity('chapters')
export class Chapter {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'book_id', type: 'integer' })
  bookId: number;

  @ManyToOne('Book', 'chapters', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'book_id' })
  book?: Book;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ name: 'chapter_no', type: 'integer' })
  chapterNo: number;

  /** The sum of its phrases' clip durations, kept by the catalogue's repository (chapter-length.ts). */
  @Column({ name: 'length_ms', type: 'integer', default: 0 })
  lengthMs: number;

  @OneToMany('Phrase', 'chapter')
  phrases?: Phrase[];

  @CreateDateColumn({ name: 'created_at', type: Date })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
