import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

// Date columns say `type: Date`, which each driver maps itself (datetime on SQLite, timestamp on
// PostgreSQL, where the migration makes them timestamptz), rather than SQLite's 'datetime'.

/** What a card holds: a glossary entry, or a whole phrase (a phrase card: empty term and meaning). */
export type CardKind = 'word' | 'phrase';

/** Where a word card's meaning came from (docs/dictionaries.md). */
export type MeaningSource = 'glossary' | 'dictionary';

/** A glossary entry or a phrase a member saved, with its FSRS card. */
@Entity('saved_words')
export class SavedWord {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'phrase_id', type: 'integer' })
  phraseId: number;

  /** "word" for a glossary entry, "phrase" for a phrase card (docs/practice.md). */
  @Column({ type: 'varchar', length: 10, default: 'word' })
  kind: CardKind;

  @Column({ type: 'varchar', length: 200 })
  term: string;

  @Column({ type: 'varchar', length: 1000 })
  meaning: string;

  /** Where the meaning came from: the phrase's glossary, or a dictionary (then `sourceName` names it). */
  @Column({ type: 'varchar', length: 12, default: 'glossary' })
  source: MeaningSource;

  @Column({ name: 'source_name', type: 'varchar', length: 200, nullable: true })
  sourceName: string | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ type: Date })
  due: Date;

  @Column({ type: 'real', default: 0 })
  stability: number;

  @Column({ type: 'real', default: 0 })
  difficulty: number;

  @Column({ name: 'elapsed_days', type: 'integer', default: 0 })
  elapsedDays: number;

  @Column({ name: 'scheduled_days', type: 'integer', default: 0 })
  scheduledDays: number;

  @Column({ name: 'learning_steps', type: 'integer', default: 0 })
  learningSteps: number;

  @Column({ type: 'integer', default: 0 })
  reps: number;

  @Column({ type: 'integer', default: 0 })
  lapses: number;

  @Column({ type: 'integer', default: 0 })
  state: number;

  @Column({ name: 'last_review', type: Date, nullable: true })
  lastReview: Date | null;

  @Column({ type: 'integer', default: 0 })
  version: number;
}
