import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Clock } from '../common/clock';
import { derivedKey } from '../common/derived-key';
import { APP_CONFIG, type AppConfig } from '../config';

/** A preview URL lives this long: enough to listen through a preview, not to share it around. */
const LIFETIME_SECONDS = 3600;

/**
 * Signed URLs for a staged import's clips (`/api/v1/import-preview/<id>/<n>?exp=&sig=`): staged files
 * are not media, and the preview's <audio> cannot send the administrator's token.
 */
@Injectable()
export class PreviewUrls {
  private readonly key: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.key = derivedKey(config.jwtSecret, 'lingonovel import preview v1');
  }

  private signature(id: string, n: number, exp: number): string {
    return createHmac('sha256', this.key).update(`${id}/${n}\n${exp}`).digest('base64url');
  }

  url(id: string, n: number): string {
    const exp = Math.floor(this.clock.now().getTime() / 1000) + LIFETIME_SECONDS;
    return `/api/v1/import-preview/${id}/${n}?exp=${exp}&sig=${this.signature(id, n, exp)}`;
  }

  verify(id: string, n: number, exp: unknown, sig: unknown): boolean {
    if (typeof exp !== 'string' || typeof sig !== 'string' || !/^[1-9]\d{0,11}$/.test(exp)) return false;
    const expiry = Number(exp);
    const now = Math.floor(this.clock.now().getTime() / 1000);
    if (expiry <= now || expiry > now + LIFETIME_SECONDS + 60) return false;
    const given = Buffer.from(sig);
    const expected = Buffer.from(this.signature(id, n, expiry));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
