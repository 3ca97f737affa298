import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** Where a language's forms came from: an expanded Hunspell dictionary, or a list of (irregular) forms. */
export type WordFormOrigin = 'hunspell' | 'list';

/** One inflected form of a language and one of its lemmas; a form with two lemmas has two rows. */
@Entity('word_forms')
export class WordForm {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 35 })
  lang: string;

  @Column({ type: 'varchar', length: 10 })
  origin: WordFormOrigin;

  @Column({ type: 'integer' })
  generation: number;

  @Column({ type: 'varchar', length: 200 })
  form: string;

  @Column({ type: 'varchar', length: 200 })
  lemma: string;
}

/** Which generation of a language's forms from one origin is live, and how many it has. */
@Entity('word_form_sets')
export class WordFormSet {
  @PrimaryColumn({ type: 'varchar', length: 35 })
  lang: string;

  @PrimaryColumn({ type: 'varchar', length: 10 })
  origin: WordFormOrigin;

  @Column({ type: 'integer' })
  generation: number;

  @Column({ type: 'integer', default: 0 })
  forms: number;

  @Column({ type: 'integer', default: 0 })
  lemmas: number;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
