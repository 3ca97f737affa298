import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A password a member made for a reading app (OPDS over HTTP Basic); only its SHA-256 is kept. */
@Entity('app_passwords')
export class AppPassword {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'secret_hash', type: 'varchar', length: 64 })
  secretHash: string;

  @CreateDateColumn({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: Date, nullable: true })
  lastUsedAt: Date | null;
}
