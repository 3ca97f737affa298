import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One dictation a member typed for a phrase, with the score the server gave it (docs/practice.md). */
@Entity('dictation_attempts')
export class DictationAttempt {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'phrase_id', type: 'integer' })
  phraseId: number;

  /** What the member typed, as sent. */
  @Column({ type: 'text' })
  typed: string;

  /** 0 to 100: the share of the phrase's words typed right (an accent-only slip counts half unless strict). */
  @Column({ type: 'integer' })
  score: number;

  @Column({ type: 'boolean', default: false })
  strict: boolean;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}
