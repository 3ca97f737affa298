import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One phrase a member heard to its end, reported by the player. */
@Entity('listening_events')
export class ListeningEvent {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'event_id', type: 'varchar', length: 36 })
  eventId: string;

  @Column({ name: 'phrase_id', type: 'integer' })
  phraseId: number;

  @Column({ name: 'book_id', type: 'integer' })
  bookId: number;

  @Column({ name: 'chapter_id', type: 'integer' })
  chapterId: number;

  @Column({ type: 'integer' })
  ms: number;

  @Column({ name: 'heard_at', type: Date })
  heardAt: Date;

  /** The 15-minute period heardAt falls in (see the migration). */
  @Column({ name: 'heard_quarter', type: 'integer' })
  heardQuarter: number;

  @Column({ name: 'received_at', type: Date })
  receivedAt: Date;

  /** The minute receivedAt falls in: the replay ranking counts at most one replay per member, phrase and minute. */
  @Column({ name: 'received_minute', type: 'integer', default: 0 })
  receivedMinute: number;
}
