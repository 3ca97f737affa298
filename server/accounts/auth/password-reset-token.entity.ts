import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Only the SHA-256 of a recovery token is kept, so a leaked database cannot be used to reset passwords. */
@Entity('password_reset_tokens')
export class PasswordResetToken {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Column({ name: 'expires_at', type: Date })
  expiresAt: Date;

  @Column({ name: 'used_at', type: Date, nullable: true })
  usedAt: Date | null;

  /** Set from the injectable clock (not the database), so tests can move time. */
  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}
