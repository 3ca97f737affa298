import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Response } from 'express';
import { QueryFailedError, type Repository } from 'typeorm';
import { RuleFailed, ValidationFailed } from '../common/api-error';
import { Clock } from '../common/clock';
import { SlidingWindow, TooManyRequests } from '../common/rate-limit';
import { User, UserType } from '../users/user.entity';
import { toUserResponse, type UserResponse } from '../users/users.dto';
import type { LoginDto, SignupDto } from './auth.dto';
import { hashPassword, verifyPassword } from './password';
import { SessionTokens } from './session-tokens.service';

export const BAD_CREDENTIALS = 'These credentials do not match our records.';
const EMAIL_TAKEN = 'The email has already been taken.';
export const LOGIN_FAILURES_ALLOWED = 5;
export const LOGIN_LOCK_MS = 15 * 60 * 1000;

@Injectable()
export class AuthService {
  /** Failed logins per email, whatever address they come from. */
  private readonly failures: SlidingWindow;
  /** Verifying against this when the email is unknown keeps both answers equally slow. */
  private readonly dummyHash: Promise<string>;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly tokens: SessionTokens,
    clock: Clock,
  ) {
    this.failures = new SlidingWindow(LOGIN_FAILURES_ALLOWED, LOGIN_LOCK_MS, clock);
    this.dummyHash = hashPassword('not-a-real-password-' + Math.random());
  }

  async signup(dto: SignupDto): Promise<{ message: string }> {
    if (await this.users.existsBy({ email: dto.email })) throw ValidationFailed.field('email', EMAIL_TAKEN);
    try {
      await this.users.insert({
        name: dto.name,
        email: dto.email,
        passwordHash: await hashPassword(dto.password),
        userType: UserType.Member,
        userRoleId: UserType.Member,
      });
    } catch (error) {
      // Two sign-ups with one address at the same moment: the unique index decides.
      if (error instanceof QueryFailedError && /UNIQUE/.test(error.message)) {
        throw ValidationFailed.field('email', EMAIL_TAKEN);
      }
      throw error;
    }
    return { message: 'Your account has been created. You can now sign in.' };
  }

  async login(dto: LoginDto, response: Response): Promise<{ token: string; user: UserResponse }> {
    const wait = this.failures.waitMs(dto.email);
    if (wait > 0) {
      throw new TooManyRequests(
        response,
        wait,
        'Too many failed sign-in attempts for this account. Please try again later or reset your password.',
      );
    }
    // Counted before the (slow) password check, so guesses sent all at once cannot pass the limit together;
    // a success wipes the count.
    this.failures.record(dto.email);
    const user = await this.users.findOneBy({ email: dto.email });
    const valid = await verifyPassword(user?.passwordHash ?? (await this.dummyHash), dto.password);
    if (!user || !valid) throw new RuleFailed(BAD_CREDENTIALS);
    this.failures.reset(dto.email);
    return { token: this.tokens.issue(user), user: toUserResponse(user) };
  }
}
