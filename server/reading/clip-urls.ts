import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '../common/derived-key';
import { APP_CONFIG, type AppConfig } from '../config';
import { Clock } from '../common/clock';
import { mediaUrl } from '../media/media-urls';

const HOUR = 3600;
/** A signed clip URL lives at most this long; the player asks its chapter for fresh ones after. */
export const CLIP_URL_HOURS = 6;

/**
 * Signed URLs for the clips of locked chapters: `/media/<path>?exp=<unix seconds>&sig=<HMAC>`. An
 * `<audio>` element cannot send a token, so the URL itself carries the permission, for a few hours. The
 * expiry is rounded to the hour, so one chapter's URLs stay the same within the hour (the browser's
 * cache keeps working).
 */
@Injectable()
export class ClipUrls {
  private readonly key: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.key = derivedKey(config.jwtSecret, 'lingonovel clip url v1');
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  private signature(path: string, exp: number): Buffer {
    return createHmac('sha256', this.key).update(`${path}\n${exp}`).digest();
  }

  /** The URL a reader's page plays: signed when the clip's chapter is locked. */
  url(path: string, locked: boolean): string {
    if (!locked) return mediaUrl(path);
    const exp = (Math.floor(this.nowSeconds() / HOUR) + CLIP_URL_HOURS) * HOUR;
    return `${mediaUrl(path)}?exp=${exp}&sig=${this.signature(path, exp).toString('base64url')}`;
  }

  /** Whether `exp` and `sig`, as a client sent them, are a live signature of this path. */
  verify(path: string, exp: unknown, sig: unknown): boolean {
    // One spelling only: no leading zeros, and the signature exactly as we write it (base64url decoding
    // alone would forgive padding, other alphabets and the last character's spare bits).
    if (typeof exp !== 'string' || typeof sig !== 'string' || !/^[1-9]\d{0,11}$/.test(exp)) return false;
    const expiry = Number(exp);
    const now = this.nowSeconds();
    // Expired, or further ahead than we ever sign: both refused.
    if (expiry <= now || expiry > now + (CLIP_URL_HOURS + 1) * HOUR) return false;
    const given = Buffer.from(sig);
    const expected = Buffer.from(this.signature(path, expiry).toString('base64url'));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
