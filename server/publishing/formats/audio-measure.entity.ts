import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A stored clip's length as decoding it gives: `audio_key` is `<store>:<key>` (docs/formats.md). */
@Entity('audio_measures')
export class AudioMeasure {
  @PrimaryColumn({ name: 'audio_key', type: 'varchar', length: 600 })
  audioKey: string;

  /** Microseconds: a sum over a chapter's clips stays exact (bigint: a string from both drivers). */
  @Column({
    name: 'decoded_us',
    type: 'bigint',
    transformer: { to: (value: number) => value, from: (value: unknown) => Number(value) },
  })
  decodedUs: number;

  @Column({ name: 'measured_at', type: Date, default: () => 'CURRENT_TIMESTAMP' })
  measuredAt: Date;
}
