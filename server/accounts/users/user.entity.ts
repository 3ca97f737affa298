import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** docs/product.md section 9: user_type 1 is an administrator, 2 an ordinary member. */
export enum UserType {
  Admin = 1,
  Member = 2,
}

@Entity('users')
export class User {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** Stored lower-cased so that look-ups and the unique index ignore case. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ name: 'user_type', type: 'integer', default: UserType.Member })
  userType: UserType;

  @Column({ name: 'user_role_id', type: 'integer', default: UserType.Member })
  userRoleId: number;

  /** Bumped by a password change or reset, so that tokens issued before it stop working. */
  @Column({ name: 'token_version', type: 'integer', default: 0 })
  tokenVersion: number;

  /** An IANA name such as "Europe/Paris"; days (new cards, streaks, charts) are this zone's days. Null: UTC. */
  @Column({ name: 'time_zone', type: 'varchar', length: 64, nullable: true })
  timeZone: string | null;

  /** The languages the member reads, best first, as BCP 47 tags joined by commas ("en,pt-BR"). Null: none chosen. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  speaks: string | null;

  @CreateDateColumn({ name: 'created_at', type: Date })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
