import { Inject, Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { APP_CONFIG, type AppConfig } from '../config';
import { Clock } from '../common/clock';
import type { User } from '../users/user.entity';

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface SessionClaims {
  userId: number;
  tokenVersion: number;
}

/**
 * Bearer tokens: JWT signed with HS256 only (verification names the one algorithm, so `alg: none` and
 * algorithm swaps fail). They carry the user's token version, which a password change or reset bumps,
 * and must carry an expiry.
 */
@Injectable()
export class SessionTokens {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  issue(user: User): string {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    return jwt.sign({ ver: user.tokenVersion, iat, exp: iat + SESSION_TTL_SECONDS }, this.config.jwtSecret, {
      algorithm: 'HS256',
      subject: String(user.id),
    });
  }

  verify(token: string): SessionClaims | null {
    try {
      const claims = jwt.verify(token, this.config.jwtSecret, {
        algorithms: ['HS256'],
        clockTimestamp: Math.floor(this.clock.now().getTime() / 1000),
      }) as jwt.JwtPayload;
      const userId = Number(claims.sub);
      // A token without an expiry would be valid forever; one with another type (a device token) is no
      // session, whatever key it was signed with.
      if (typeof claims.exp !== 'number' || claims.typ !== undefined) return null;
      if (!Number.isSafeInteger(userId) || typeof claims.ver !== 'number') return null;
      return { userId, tokenVersion: claims.ver };
    } catch {
      return null;
    }
  }
}
