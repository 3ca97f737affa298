import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A phrase's translation into one language (a BCP 47 tag such as "en" or "pt-BR"): one row per phrase and
 * language. Part of the catalogue: only the catalogue's repositories write it (docs/architecture.md).
 */
@Entity('phrase_translations')
export class PhraseTranslation {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'phrase_id', type: 'integer' })
  phraseId: number;

  /** A BCP 47 tag in its canonical case ("en", "pt-BR", "zh-Hant"). */
  @Column({ type: 'varchar', length: 35 })
  language: string;

  @Column({ type: 'text' })
  text: string;
}
