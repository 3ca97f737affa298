import { Column, Entity, PrimaryColumn } from 'typeorm';

export type ImportKind = 'chapter' | 'book';
export type ImportStatus = 'staged' | 'committing';
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
}
