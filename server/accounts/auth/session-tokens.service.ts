import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { Clock } from '../../platform/common/clock';
import type { User } from '../users/user.entity';

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface SessionClaims {
  userId: number;
  tokenVersion: number;
}

/**
 * Bearer tokens: JWT signed with HS256 only, through @nestjs/jwt (verification names the one algorithm,
 * so `alg: none` and algorithm swaps fail). They carry the user's token version, which a password change
 * or reset bumps, and must carry an expiry. The bearer strategy (jwt.strategy.ts) checks the signature;
 * `claimsOf` then checks the rest against our clock, which tests move.
 */
@Injectable()
export class SessionTokens {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly jwt: JwtService,
  ) {}

  issue(user: User): string {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    return this.jwt.sign(
      { ver: user.tokenVersion, iat, exp: iat + SESSION_TTL_SECONDS },
      { secret: this.config.jwtSecret, algorithm: 'HS256', subject: String(user.id) },
    );
  }

  /** The claims of a token whose signature is already checked, or null if it is no live session token. */
  claimsOf(payload: Record<string, unknown>): SessionClaims | null {
    const userId = Number(payload.sub);
    // A token without an expiry would be valid forever; one with another type (a device token) is no
    // session, whatever key it was signed with.
    if (typeof payload.exp !== 'number' || payload.exp <= this.nowSeconds() || payload.typ !== undefined)
      return null;
    if (!Number.isSafeInteger(userId) || typeof payload.ver !== 'number') return null;
    return { userId, tokenVersion: payload.ver };
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }
}
