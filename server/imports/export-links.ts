import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Clock } from '../common/clock';
import { derivedKey } from '../common/derived-key';
import { APP_CONFIG, type AppConfig } from '../config';

/**
 * A download link lives this long: the browser follows it at once, and the download, once started, is
 * not cut off when the link expires. A link copied into a chat or a log is useless minutes later.
 */
const LIFETIME_SECONDS = 300;

/**
 * Signed links for a book's export (`/api/v1/book-export/<book_code>?exp=&sig=`): a download started by
 * a plain link cannot send the administrator's token, and holding the whole zip in the browser to attach
 * one would not scale to a real book. The signature is the permission, with a key of its own.
 */
@Injectable()
export class ExportLinks {
  private readonly key: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.key = derivedKey(config.jwtSecret, 'lingonovel book export v1');
  }

  private signature(bookCode: string, exp: number): string {
    return createHmac('sha256', this.key).update(`${bookCode}\n${exp}`).digest('base64url');
  }

  link(bookCode: string): { url: string; expires_at: string } {
    const exp = Math.floor(this.clock.now().getTime() / 1000) + LIFETIME_SECONDS;
    return {
      url: `/api/v1/book-export/${encodeURIComponent(bookCode)}?exp=${exp}&sig=${this.signature(bookCode, exp)}`,
      expires_at: new Date(exp * 1000).toISOString(),
    };
  }

  verify(bookCode: string, exp: unknown, sig: unknown): boolean {
    if (typeof exp !== 'string' || typeof sig !== 'string' || !/^[1-9]\d{0,11}$/.test(exp)) return false;
    const expiry = Number(exp);
    const now = Math.floor(this.clock.now().getTime() / 1000);
    if (expiry <= now || expiry > now + LIFETIME_SECONDS + 60) return false;
    const given = Buffer.from(sig);
    const expected = Buffer.from(this.signature(bookCode, expiry));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
