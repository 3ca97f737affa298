import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../../platform/database/column-transformers';

export type ImportKind = 'chapter' | 'book';
/** 'aligning': a recording is being aligned to its text, by the job holding the lease (alignment-jobs.ts). */
export type ImportStatus = 'aligning' | 'staged' | 'committing';
export type ImportMode = 'append' | 'replace';

/** An upload previewed and waiting: its files are in STORAGE_DIR/imports/<id>/. */
@Entity('imports')
export class StagedImport {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 16 })
  kind: ImportKind;

  @Column({ type: 'varchar', length: 16 })
  status: ImportStatus;

  @Column({ name: 'chapter_id', type: 'integer', nullable: true })
  chapterId: number | null;

  @Column({ type: 'varchar', length: 16 })
  mode: ImportMode;

  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;

  /** JSON: the preview (see ChapterManifest and BookManifest). */
  @Column({ type: 'text' })
  manifest: string;

  /** While aligning: how far, in percent, and the seconds left as last estimated. */
  @Column({ type: 'integer', nullable: true })
  progress: number | null;

  @Column({ name: 'eta_s', type: 'integer', nullable: true })
  etaS: number | null;

  /** While aligning: the instance running the job, until when (its clock, in ms) unless renewed. */
  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_until_ms', type: 'bigint', nullable: true, transformer: bigintNumber })
  leaseUntilMs: number | null;
}
