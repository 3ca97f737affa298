import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One headword of a dictionary's generation, its definition as plain text. */
@Entity('dictionary_entries')
export class DictionaryEntry {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'dictionary_id', type: 'integer' })
  dictionaryId: number;

  @Column({ type: 'integer' })
  generation: number;

  @Column({ type: 'varchar', length: 200 })
  headword: string;

  /** The headword case- and accent-folded (`foldWord`), for the last step of a lookup. */
  @Column({ type: 'varchar', length: 200 })
  folded: string;

  @Column({ type: 'text' })
  definition: string;

  @Column({ type: 'varchar', length: 40, nullable: true })
  pos: string | null;
}
