import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

// Date columns say `type: Date`, which each driver maps itself (datetime on SQLite, timestamp on
// PostgreSQL, where the migration makes them timestamptz), rather than SQLite's 'datetime'.

/** One answer in a review. */
@Entity('review_logs')
export class ReviewLog {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'word_id', type: 'integer' })
  wordId: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'integer' })
  rating: number;

  @Column({ type: 'integer' })
  state: number;

  @Column({ type: Date })
  due: Date;

  @Column({ name: 'scheduled_days', type: 'integer', default: 0 })
  scheduledDays: number;

  @Column({ name: 'elapsed_days', type: 'integer', default: 0 })
  elapsedDays: number;

  @Column({ name: 'reviewed_at', type: Date })
  reviewedAt: Date;

  /** The 15-minute period reviewedAt falls in, for the stats (see the LearnerProgress migration). */
  @Column({ name: 'reviewed_quarter', type: 'integer', default: 0 })
  reviewedQuarter: number;

  // The rest of the card before this answer, so that undo puts it back exactly.
  @Column({ type: 'real', default: 0 })
  stability: number;

  @Column({ type: 'real', default: 0 })
  difficulty: number;

  @Column({ name: 'learning_steps', type: 'integer', default: 0 })
  learningSteps: number;

  @Column({ type: 'integer', default: 0 })
  reps: number;

  @Column({ type: 'integer', default: 0 })
  lapses: number;

  @Column({ name: 'last_review', type: Date, nullable: true })
  lastReview: Date | null;

  /** The word's version before this answer; undo applies only while the word is still at version + 1. */
  @Column({ type: 'integer', default: 0 })
  version: number;
}
