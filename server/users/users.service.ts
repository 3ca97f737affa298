import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ValidationFailed } from '../common/api-error';
import { hashPassword, verifyPassword } from '../auth/password';
import { SessionTokens } from '../auth/session-tokens.service';
import type { ChangePasswordDto } from '../auth/auth.dto';
import { BillingService } from '../billing/billing.service';
import { User } from './user.entity';
import { toProfileResponse, type UpdateProfileDto } from './users.dto';

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly tokens: SessionTokens,
    private readonly billing: BillingService,
  ) {}

  async profile(user: User) {
    return { data: { ...toProfileResponse(user), subscription: await this.billing.summary(user.id) } };
  }

  async updateProfile(user: User, dto: UpdateProfileDto) {
    user.name = dto.name;
    const saved = await this.users.save(user);
    return { message: 'Your profile has been updated.', data: toProfileResponse(saved) };
  }

  /** Bumps the token version, so every other session ends; the caller gets a fresh token to carry on. */
  async changePassword(user: User, dto: ChangePasswordDto) {
    if (!(await verifyPassword(user.passwordHash, dto.current_password))) {
      throw ValidationFailed.field('current_password', 'The current password is not correct.');
    }
    user.passwordHash = await hashPassword(dto.password);
    user.tokenVersion += 1;
    const saved = await this.users.save(user);
    return { message: 'Your password has been changed.', token: this.tokens.issue(saved) };
  }
}
