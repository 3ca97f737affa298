import { ConflictException, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ValidationFailed } from '../../platform/common/api-error';
import { AppPasswords } from '../app-passwords/app-passwords.service';
import { hashPassword, verifyPassword } from '../auth/password';
import { SessionTokens } from '../auth/session-tokens.service';
import type { ChangePasswordDto } from '../auth/auth.dto';
import { BillingService } from '../billing/billing.service';
import { canonicalTimeZone } from '../../platform/common/time-zone';
import { User } from './user.entity';
import { toSpeaks } from './speaks';
import {
  toProfileResponse,
  type PasswordChangedAnswer,
  type ProfileAnswer,
  type ProfileUpdatedAnswer,
  type UpdateProfileDto,
} from './users.dto';

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly tokens: SessionTokens,
    private readonly billing: BillingService,
    private readonly appPasswords: AppPasswords,
  ) {}

  async profile(user: User): Promise<ProfileAnswer> {
    return { data: { ...toProfileResponse(user), subscription: await this.billing.summary(user.id) } };
  }

  async updateProfile(user: User, dto: UpdateProfileDto): Promise<ProfileUpdatedAnswer> {
    // Only these fields are written: saving the whole loaded user could put back a password reset meanwhile.
    const changes: Partial<User> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.time_zone !== undefined) changes.timeZone = dto.time_zone && canonicalTimeZone(dto.time_zone);
    if (dto.speaks !== undefined) changes.speaks = toSpeaks(dto.speaks ?? []);
    await this.users.update({ id: user.id }, changes);
    const saved = await this.users.findOneByOrFail({ id: user.id });
    return { message: 'Your profile has been updated.', data: toProfileResponse(saved) };
  }

  /**
   * Bumps the token version, so every other session ends, and revokes the app passwords; the caller gets
   * a fresh token to carry on.
   */
  async changePassword(user: User, dto: ChangePasswordDto): Promise<PasswordChangedAnswer> {
    if (!(await verifyPassword(user.passwordHash, dto.current_password))) {
      throw ValidationFailed.field('current_password', 'The current password is not correct.');
    }
    const passwordHash = await hashPassword(dto.password);
    // Conditional on the token version the request was authorised with: if a reset or another change won
    // the race, this one must not undo it.
    await this.users.manager.transaction(async (tx) => {
      const { affected } = await tx
        .getRepository(User)
        .createQueryBuilder()
        .update()
        .set({ passwordHash, tokenVersion: () => 'token_version + 1' })
        .where('id = :id AND token_version = :version', { id: user.id, version: user.tokenVersion })
        .execute();
      if (affected !== 1)
        throw new ConflictException('Your password was changed elsewhere meanwhile. Please sign in again.');
      // App passwords end with the password, as sessions do (docs/formats.md "App passwords").
      await this.appPasswords.revokeAllOf(tx, user.id);
    });
    const saved = await this.users.findOneByOrFail({ id: user.id });
    return { message: 'Your password has been changed.', token: this.tokens.issue(saved) };
  }
}
