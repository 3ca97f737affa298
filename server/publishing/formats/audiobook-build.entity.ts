import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from '../../platform/database/column-transformers';

export type AudiobookEdition = 'full' | 'sample';
export type AudiobookState = 'building' | 'ready' | 'failed';

/**
 * A book's M4B, per edition: the version of the book `file_key` holds (`version`), and the build under
 * way, if any (`building_version`, held by `lease_owner` until `lease_until_ms`). docs/formats.md.
 */
@Entity('audiobook_builds')
export class AudiobookBuild {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'book_id', type: 'integer' })
  bookId: number;

  @Column({ type: 'varchar', length: 8 })
  edition: AudiobookEdition;

  @Column({ type: 'varchar', length: 10 })
  state: AudiobookState;

  /** The version `file_key` holds ('' before the first build ends). */
  @Column({ type: 'varchar', length: 64 })
  version: string;

  @Column({ name: 'building_version', type: 'varchar', length: 64, nullable: true })
  buildingVersion: string | null;

  /** In the derived store (never served by /media). */
  /** The version whose build failed last: only that version waits out the pause (docs/formats.md). */
  @Column({ name: 'failed_version', type: 'varchar', length: 64, nullable: true })
  failedVersion: string | null;

  @Column({ name: 'file_key', type: 'varchar', length: 300, nullable: true })
  fileKey: string | null;

  @Column({ name: 'file_bytes', type: 'bigint', nullable: true, transformer: bigintNumber })
  fileBytes: number | null;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_until_ms', type: 'bigint', nullable: true, transformer: bigintNumber })
  leaseUntilMs: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'updated_at', type: Date, default: () => 'CURRENT_TIMESTAMP' })
  updatedAt: Date;
}
