import { Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { RuleFailed } from '../../platform/common/api-error';
import { Clock } from '../../platform/common/clock';
import { derivedKey } from '../../platform/common/derived-key';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { User } from '../users/user.entity';
import { AppPassword } from './app-password.entity';
import {
  toAppPasswordResponse,
  type AppPasswordCreatedAnswer,
  type AppPasswordsAnswer,
  type CreateAppPasswordDto,
} from './app-passwords.dto';

/** A member with more is keeping passwords for apps long gone (docs/formats.md "App passwords"). */
export const MAX_APP_PASSWORDS = 20;
/** last_used_at is a hint for the member ("used yesterday"), not an audit log: one write a minute at most. */
const LAST_USED_EVERY_MS = 60_000;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** 120 bits: 24 base32 characters, shown in groups of four. */
const SECRET_BYTES = 15;

/** 15 random bytes as 24 base32 characters (5 bits each, no padding: 120 is a multiple of 5). */
function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

/** What a member may type: any case, with or without the dashes and spaces we show. */
function normalised(password: string): string {
  return password.replace(/[\s-]/g, '').toLowerCase();
}

/**
 * App passwords: the only writer of `app_passwords`. A random 120-bit secret needs no slow hash (Argon2id
 * is for passwords people choose); an HMAC keyed from JWT_SECRET makes a copied table useless without the
 * server's secret.
 */
@Injectable()
export class AppPasswords {
  private readonly logger = new Logger(AppPasswords.name);
  private readonly key: Buffer;

  constructor(
    @InjectRepository(AppPassword) private readonly passwords: Repository<AppPassword>,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly db: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.key = derivedKey(config.jwtSecret, 'lingonovel app password v1');
  }

  private hash(password: string): string {
    return createHmac('sha256', this.key).update(normalised(password)).digest('hex');
  }

  async list(user: User): Promise<AppPasswordsAnswer> {
    const rows = await this.passwords.find({ where: { userId: user.id }, order: { id: 'ASC' } });
    return { data: rows.map(toAppPasswordResponse) };
  }

  /** Makes one and answers its secret: the only time it is ever shown. */
  async create(user: User, dto: CreateAppPasswordDto): Promise<AppPasswordCreatedAnswer> {
    const secret = base32(randomBytes(SECRET_BYTES)).replace(/(.{4})(?!$)/g, '$1-');
    const id = await this.db.transaction(async (tx) => {
      // Two requests at once must not both see 19: the member's row is locked while counting.
      if (tx.connection.options.type === 'postgres')
        await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [user.id]);
      const count = await tx.count(AppPassword, { where: { userId: user.id } });
      if (count >= MAX_APP_PASSWORDS)
        throw new RuleFailed(
          `You have ${MAX_APP_PASSWORDS} app passwords already. Revoke one you no longer use, then make a new one.`,
        );
      const { identifiers } = await tx.insert(AppPassword, {
        userId: user.id,
        name: dto.name,
        secretHash: this.hash(secret),
        lastUsedAt: null,
      });
      return Number(identifiers[0].id);
    });
    const row = await this.passwords.findOneByOrFail({ id });
    return {
      message: 'Copy this password into your reading app now: it will not be shown again.',
      data: { ...toAppPasswordResponse(row), password: secret },
    };
  }

  async revoke(user: User, id: number): Promise<{ message: string }> {
    // Another member's id is answered as one that does not exist: ids are not a way to probe.
    const { affected } = await this.passwords.delete({ id, userId: user.id });
    if (!affected) throw new NotFoundException('App password not found.');
    return { message: 'The app password has been revoked.' };
  }

  /**
   * Every app password of the member, inside the caller's transaction: a password reset or change ends
   * them along with every session (docs/formats.md "App passwords"), since whoever knew the old password
   * may have made one.
   */
  async revokeAllOf(tx: EntityManager, userId: number): Promise<void> {
    await tx.delete(AppPassword, { userId });
  }

  /**
   * The member whose email (spelled as sign-in reads it) and app password these are, or null. Every
   * password of the account is compared in constant time; an unknown email costs the same hash and the
   * same two queries, so the time taken does not tell whether the email is a member's.
   */
  async authenticate(email: string, password: string): Promise<User | null> {
    const given = Buffer.from(this.hash(password));
    const user = await this.users.findOneBy({ email: email.trim().toLowerCase() });
    // Ids start at 1: 0 matches no row, but the query runs all the same.
    const rows = await this.passwords.find({ where: { userId: user?.id ?? 0 } });
    const match = rows.find((row) => {
      const stored = Buffer.from(row.secretHash);
      return stored.length === given.length && timingSafeEqual(stored, given);
    });
    if (!user || !match) return null;
    this.touch(match.id);
    return user;
  }

  /**
   * last_used_at, at most once a minute, best effort: the member's hint is not worth delaying the app's
   * request or failing it. Conditional in SQL, so concurrent requests write it once.
   */
  private touch(id: number): void {
    const now = this.clock.now();
    void this.passwords
      .createQueryBuilder()
      .update()
      .set({ lastUsedAt: now })
      .where('id = :id AND (last_used_at IS NULL OR last_used_at < :before)', {
        id,
        before: new Date(now.getTime() - LAST_USED_EVERY_MS),
      })
      .execute()
      .catch((error: unknown) => this.logger.warn(`Could not note an app password's use: ${String(error)}`));
  }
}
