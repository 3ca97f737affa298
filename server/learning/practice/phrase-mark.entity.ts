import { Column, Entity, PrimaryColumn } from 'typeorm';

export const PHRASE_MARKS = ['got', 'unsure', 'lost'] as const;
export type PhraseMarkValue = (typeof PHRASE_MARKS)[number];

/** A member's latest "Got it / Not sure / Lost" for a phrase: one row per member and phrase. */
@Entity('phrase_marks')
export class PhraseMark {
  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  userId: number;

  @PrimaryColumn({ name: 'phrase_id', type: 'integer' })
  phraseId: number;

  @Column({ type: 'varchar', length: 10 })
  mark: PhraseMarkValue;

  @Column({ name: 'marked_at', type: Date })
  markedAt: Date;
}
