import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, IsNull, MoreThan, type Repository } from 'typeorm';
import { AppPasswords } from '../app-passwords/app-passwords.service';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { RuleFailed } from '../../platform/common/api-error';
import type { MessageAnswer } from '../../platform/common/answers';
import { Clock } from '../../platform/common/clock';
import { MailService } from '../../platform/mail/mail.service';
import { passwordResetMail } from '../../platform/mail/password-reset.mail';
import { User } from '../users/user.entity';
import { PasswordResetToken } from './password-reset-token.entity';
import { hashPassword } from './password';

export const TOKEN_TTL_MINUTES = 30;
export const MAILS_PER_HOUR = 3;
export const INVALID_TOKEN = 'This password reset token is invalid or has expired.';
export const RECOVERY_SENT =
  'If an account exists for that email address, we have sent it a password reset token. It expires in 30 minutes.';

const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Password recovery by emailed token (the three-step wizard of docs/product.md section 4). Tokens are 256 random bits; only
 * their hash is stored; they expire, work once, and a reset kills every other token of the account.
 */
@Injectable()
export class PasswordRecoveryService implements OnModuleDestroy {
  private readonly logger = new Logger(PasswordRecoveryService.name);
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(PasswordResetToken) private readonly resetTokens: Repository<PasswordResetToken>,
    private readonly db: DataSource,
    private readonly mail: MailService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly appPasswords: AppPasswords,
  ) {}

  /**
   * Answers the same for every address, before any work that depends on the address: looking the account
   * up, counting its quota and storing a token would make known addresses measurably slower to answer.
   * Only a known one, under its hourly quota, gets mail.
   */
  requestToken(email: string): Promise<MessageAnswer> {
    // setImmediate: the answer is written before the work begins (better-sqlite3 is synchronous, so work
    // started in this tick could run before the answer goes out).
    const work = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.issueToken(email))
      .catch((error: unknown) =>
        this.logger.error(`Could not issue a password reset token: ${String(error)}`),
      )
      .finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
    return Promise.resolve({ message: RECOVERY_SENT });
  }

  /** Shutting down waits for tokens being issued, so none is cut off halfway. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.inFlight);
  }

  private async issueToken(email: string): Promise<void> {
    const user = await this.users.findOneBy({ email });
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    const issued = await this.db.transaction(async (tx) => {
      // Requests for one account come close together (a double click, a script): two of them must not
      // both count 2 and both send. On PostgreSQL the account's row is locked while counting, on any
      // instance; on SQLite the transaction runs alone.
      if (tx.connection.options.type === 'postgres')
        await tx.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [user.id]);
      const tokens = tx.getRepository(PasswordResetToken);
      const now = this.clock.now();
      const hourAgo = new Date(now.getTime() - 60 * 60 * 1000);
      const recent = await tokens.countBy({ userId: user.id, createdAt: MoreThan(hourAgo) });
      if (recent >= MAILS_PER_HOUR) return false;
      await tokens.insert({
        userId: user.id,
        tokenHash: sha256(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + TOKEN_TTL_MINUTES * 60 * 1000),
        usedAt: null,
      });
      return true;
    });
    if (!issued) return;
    // Not awaited, so that shutting down never waits on a slow SMTP server.
    void this.mail
      .send(passwordResetMail(user.email, user.name, token, this.config.publicUrl, TOKEN_TTL_MINUTES))
      .catch((error: unknown) =>
        this.logger.error(`Could not send the password reset mail: ${String(error)}`),
      );
  }

  async verifyToken(token: string): Promise<MessageAnswer> {
    await this.findUsable(this.resetTokens, token);
    return { message: 'The token is valid. You can now choose a new password.' };
  }

  async resetPassword(token: string, password: string): Promise<MessageAnswer> {
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      const tokens = tx.getRepository(PasswordResetToken);
      const row = await this.findUsable(tokens, token);
      const now = this.clock.now();
      // Conditional on usedAt still being empty, so two concurrent resets cannot both win.
      const claimed = await tokens.update({ id: row.id, usedAt: IsNull() }, { usedAt: now });
      if (claimed.affected !== 1) throw new RuleFailed(INVALID_TOKEN);
      await tokens.update({ userId: row.userId, usedAt: IsNull() }, { usedAt: now });
      await tx
        .getRepository(User)
        .createQueryBuilder()
        .update()
        .set({ passwordHash, tokenVersion: () => 'token_version + 1' })
        .where('id = :id', { id: row.userId })
        .execute();
      // Whoever knew the old password may have made app passwords: they end with it.
      await this.appPasswords.revokeAllOf(tx, row.userId);
    });
    return { message: 'Your password has been reset. You can now sign in with your new password.' };
  }

  private async findUsable(
    repository: Repository<PasswordResetToken>,
    token: string,
  ): Promise<PasswordResetToken> {
    const row = await repository.findOneBy({ tokenHash: sha256(token) });
    if (!row || row.usedAt || row.expiresAt.getTime() <= this.clock.now().getTime())
      throw new RuleFailed(INVALID_TOKEN);
    return row;
  }
}
