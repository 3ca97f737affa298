import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How a member reads, kept on the server so that every device follows it (docs/design.md, "Themes and
 * reading settings"): the theme, and the reader's text size and line spacing. One row per member.
 */
@Entity('appearance')
export class Appearance {
  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  userId: number;

  /** system (the device's light or dark), light, dark or sepia. */
  @Column({ type: 'varchar', length: 8 })
  theme: string;

  /** 1 to 4; 2 is the default size. */
  @Column({ name: 'text_size', type: 'integer' })
  textSize: number;

  /** 1 to 3; 2 is the default spacing. */
  @Column({ name: 'line_spacing', type: 'integer' })
  lineSpacing: number;

  /** When the member chose it, on the device where they did: the newer choice wins. */
  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
