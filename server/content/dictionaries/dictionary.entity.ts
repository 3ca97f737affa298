import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The formats a dictionary is imported from (docs/dictionaries.md). */
export const DICTIONARY_FORMATS = ['dictd', 'stardict', 'tsv', 'csv'] as const;
export type DictionaryFormat = (typeof DICTIONARY_FORMATS)[number];

/** A bilingual dictionary for one pair of languages; its live entries are those of its `generation`. */
@Entity('dictionaries')
export class Dictionary {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** BCP 47 tags: the language of the headwords, and of the definitions. */
  @Column({ type: 'varchar', length: 35 })
  source: string;

  @Column({ type: 'varchar', length: 35 })
  target: string;

  @Column({ type: 'varchar', length: 10 })
  format: DictionaryFormat;

  @Column({ type: 'integer', default: 0 })
  entries: number;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  licence: string | null;

  /** Shown under every lookup from this dictionary (FreeDict's licence asks for it). */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  attribution: string | null;

  /** Which entries are live; 0 while a first import is still being written (then it is not listed). */
  @Column({ type: 'integer', default: 0 })
  generation: number;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
