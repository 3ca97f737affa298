import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A word a member deleted, waiting a few minutes for Undo (see WordTrash). */
@Entity('word_trash')
export class DeletedWord {
  /** The word's own id, which it gets back when it is restored. */
  @PrimaryColumn({ name: 'word_id', type: 'integer' })
  wordId: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'deleted_at', type: Date })
  deletedAt: Date;

  /** The word's row and its review log rows as they were, as JSON (WordSnapshot). */
  @Column({ type: 'text' })
  snapshot: string;
}
