import { isUniqueViolation } from '../../platform/database/db-errors';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { RuleFailed, ValidationFailed } from '../../platform/common/api-error';
import { RateWindows, TooManyRequests, type SlidingWindow } from '../../platform/common/rate-windows';
import { User, UserType } from '../users/user.entity';
import { toUserResponse } from '../users/users.dto';
import type { LoginAnswer, SignupAnswer } from './auth-responses';
import type { LoginDto, SignupDto } from './auth.dto';
import { hashPassword, verifyPassword } from './password';
import { DeviceTokens } from './device-tokens.service';
import { SessionTokens } from './session-tokens.service';

export const BAD_CREDENTIALS = 'These credentials do not match our records.';
const EMAIL_TAKEN = 'The email has already been taken.';
export const SIGNED_UP = 'Your account has been created and you are signed in.';
export const LOGIN_FAILURES_ALLOWED = 5;
export const LOGIN_LOCK_MS = 15 * 60 * 1000;
/** A trusted browser's own budget, counted per device token. */
export const DEVICE_FAILURES_ALLOWED = 5;
const LOCKED =
  'Too many failed sign-in attempts for this account. Please try again later or reset your password.';

@Injectable()
export class AuthService {
  /** Failed logins per email from browsers without a device token of that account, whatever their address. */
  private readonly failures: SlidingWindow;
  /** Failed logins per device token: a trusted browser is never locked out by the others. */
  private readonly deviceFailures: SlidingWindow;
  /** Verifying against this when the email is unknown keeps both answers equally slow. */
  private readonly dummyHash: Promise<string>;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly tokens: SessionTokens,
    private readonly devices: DeviceTokens,
    windows: RateWindows,
  ) {
    this.failures = windows.window('login:email', LOGIN_FAILURES_ALLOWED, LOGIN_LOCK_MS);
    this.deviceFailures = windows.window('login:device', DEVICE_FAILURES_ALLOWED, LOGIN_LOCK_MS);
    this.dummyHash = hashPassword('not-a-real-password-' + Math.random());
  }

  /**
   * Creates a member account and signs it in: the answer is the login answer (a session token, the user and
   * a device token for this browser) with a message, so that a learner who signed up from a locked chapter
   * goes straight back to it.
   */
  async signup(dto: SignupDto): Promise<SignupAnswer> {
    if (await this.users.existsBy({ email: dto.email })) throw ValidationFailed.field('email', EMAIL_TAKEN);
    let id: number;
    try {
      const { identifiers } = await this.users.insert({
        name: dto.name,
        email: dto.email,
        passwordHash: await hashPassword(dto.password),
        userType: UserType.Member,
        userRoleId: UserType.Member,
      });
      id = Number(identifiers[0].id);
    } catch (error) {
      // Two sign-ups with one address at the same moment: the unique index decides.
      if (isUniqueViolation(error)) {
        throw ValidationFailed.field('email', EMAIL_TAKEN);
      }
      throw error;
    }
    return { message: SIGNED_UP, ...this.session(await this.users.findOneByOrFail({ id })) };
  }

  async login(dto: LoginDto): Promise<LoginAnswer> {
    const user = await this.users.findOneBy({ email: dto.email });
    // A device token counts only for the account it was issued to: a stolen one for another account, or
    // one from before a password change, leaves the caller untrusted.
    const device = user && dto.device_token ? this.devices.verify(dto.device_token, user) : null;
    const [window, key] = device ? [this.deviceFailures, device] : [this.failures, dto.email];
    // Counted before the (slow) password check, so guesses sent all at once cannot pass the limit together;
    // a success wipes the count.
    const wait = await window.hit(key);
    if (wait > 0) throw new TooManyRequests(wait, LOCKED);
    const valid = await verifyPassword(user?.passwordHash ?? (await this.dummyHash), dto.password);
    if (!user || !valid) throw new RuleFailed(BAD_CREDENTIALS);
    await window.reset(key);
    return this.session(user);
  }

  /** What a successful sign-in (or sign-up) hands the browser. */
  private session(user: User): LoginAnswer {
    return {
      token: this.tokens.issue(user),
      user: toUserResponse(user),
      device_token: this.devices.issue(user),
    };
  }
}
