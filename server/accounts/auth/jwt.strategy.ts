import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { InjectRepository } from '@nestjs/typeorm';
import type { Request } from 'express';
import { Strategy } from 'passport-jwt';
import type { Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { User } from '../users/user.entity';
import { SessionTokens } from './session-tokens.service';

export const SESSION_STRATEGY = 'session-jwt';

/** `Authorization: Bearer <token>`, exactly: a token's own characters only, nothing else on the line. */
export function bearerToken(request: Request): string | null {
  return /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(request.headers.authorization ?? '')?.[1] ?? null;
}

/**
 * The bearer strategy, through passport-jwt. passport-jwt fixes its options when it starts, so it checks
 * only the signature (HS256, our secret) and skips expiry; `validate` checks `exp` against our Clock
 * (tests move it), the claims' shape and the account's token version, which a password change or reset
 * bumps: older tokens then name a version the account no longer has.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, SESSION_STRATEGY) {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly tokens: SessionTokens,
    @InjectRepository(User) private readonly users: Repository<User>,
  ) {
    super({
      jwtFromRequest: bearerToken,
      secretOrKey: config.jwtSecret,
      algorithms: ['HS256'],
      ignoreExpiration: true,
    });
  }

  /** The signed-in user, or false: passport then fails the request, and the guard answers our 401. */
  async validate(payload: Record<string, unknown>): Promise<User | false> {
    const claims = this.tokens.claimsOf(payload);
    if (!claims) return false;
    const user = await this.users.findOneBy({ id: claims.userId });
    return user && user.tokenVersion === claims.tokenVersion ? user : false;
  }
}
