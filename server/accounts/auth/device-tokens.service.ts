import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { derivedKey } from '../../platform/common/derived-key';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { Clock } from '../../platform/common/clock';
import type { User } from '../users/user.entity';

export const DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;

/**
 * OWASP's device cookies ("Slow Down Online Guessing Attacks with Device Cookies"): a browser that has
 * signed in holds a token proving it did, so its owner's sign-ins are not locked out by strangers guessing
 * the password elsewhere. A device token is never a session: it is signed with its own key (derived from
 * JWT_SECRET), carries `typ: "device"`, and the session verifier refuses both. It carries the account's
 * token version, so a password change or reset revokes every device token of the account.
 */
@Injectable()
export class DeviceTokens {
  private readonly key: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
    private readonly jwt: JwtService,
  ) {
    this.key = derivedKey(config.jwtSecret, 'lingonovel device token v1');
  }

  issue(user: User): string {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    return this.jwt.sign(
      { typ: 'device', ver: user.tokenVersion, iat, exp: iat + DEVICE_TTL_SECONDS },
      { secret: this.key, algorithm: 'HS256', subject: String(user.id), jwtid: randomUUID() },
    );
  }

  /** The device's id when `token` is a live device token of this very account; otherwise null. */
  verify(token: string, user: User): string | null {
    try {
      const claims = this.jwt.verify<Record<string, unknown>>(token, {
        secret: this.key,
        algorithms: ['HS256'],
        clockTimestamp: Math.floor(this.clock.now().getTime() / 1000),
      });
      const valid =
        claims.typ === 'device' &&
        typeof claims.exp === 'number' &&
        claims.sub === String(user.id) &&
        claims.ver === user.tokenVersion &&
        typeof claims.jti === 'string';
      return valid ? (claims.jti as string) : null;
    } catch {
      return null;
    }
  }
}
