import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Chapter } from './chapter.entity';

@Entity('phrases')
export class Phrase {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'chapter_id', type: 'integer' })
  chapterId: number;

  @ManyToOne('Chapter', 'phrases', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'chapter_id' })
  chapter?: Chapter;

  /** Reading order inside the chapter, starting at 1. */
  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'text' })
  phrase: string;

  /** One glossary entry per line, as the administrator typed it. */
  @Column({ type: 'text' })
  dictionary: string;

  @Column({ name: 'audio_path', type: 'varchar', length: 255 })
  audioPath: string;

  @Column({ name: 'audio_ms', type: 'integer', nullable: true })
  audioMs: number | null;

  @CreateDateColumn({ name: 'created_at', type: Date })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
