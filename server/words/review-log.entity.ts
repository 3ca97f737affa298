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
}
