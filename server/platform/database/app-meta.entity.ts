import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Small key/value facts about this installation, e.g. when the demo catalogue was seeded. */
@Entity('app_meta')
export class AppMeta {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key: string;

  @Column({ type: 'text' })
  value: string;
}
