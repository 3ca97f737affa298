import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config';
import { Clock } from './clock';
import { derivedKey } from './derived-key';

const HOUR = 3600;

interface LinkKind {
  /** Derives the kind's own key from JWT_SECRET: a signature made for one kind never passes for another. */
  label: string;
  /** How long a link lives, in seconds. */
  lifetime: number;
  /**
   * Expiries rounded up to this many seconds, so that links made within one window are the same URL (an
   * answer that carries them stays the same within the window). Without it, a link lives exactly
   * `lifetime`.
   */
  roundTo?: number;
}

/**
 * Every kind of signed link the server hands out. A link is the permission itself, for a client that
 * cannot send a token: an `<audio>` element, a download started by a plain link.
 */
const KINDS = {
  /** A locked chapter's clip: `/media/lines/…`. The player asks its chapter for fresh links after. */
  clip: { label: 'lingonovel clip url v1', lifetime: 6 * HOUR, roundTo: HOUR },
  /** A staged import's clip: enough to listen through a preview, not to share it around. */
  'import-preview': { label: 'lingonovel import preview v1', lifetime: HOUR },
  /**
   * A book's export: the browser follows it at once, and a download, once started, is not cut off when
   * the link expires. A link copied into a chat or a log is useless minutes later.
   */
  'book-export': { label: 'lingonovel book export v1', lifetime: 300 },
  /**
   * A member's download (EPUB, M4B) behind a button: the subject names the book, the format and the
   * member, whose plan is checked again when the link is followed (server/publishing/downloads/).
   */
  download: { label: 'lingonovel download v1', lifetime: 300 },
} satisfies Record<string, LinkKind>;

export type SignedLinkKind = keyof typeof KINDS;

/** A signed clip URL lives at most this long (hours). */
export const CLIP_URL_HOURS = KINDS.clip.lifetime / HOUR;

/**
 * Signs and checks links of the form `<url>?exp=<unix seconds>&sig=<HMAC-SHA256, base64url>`. The subject
 * is what the link grants (a media path, an import's clip, a book code); the signature covers it and the
 * expiry, with a key per kind.
 */
@Injectable()
export class SignedLinks {
  private readonly keys: Record<SignedLinkKind, Buffer>;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.keys = Object.fromEntries(
      Object.entries(KINDS).map(([kind, { label }]) => [kind, derivedKey(config.jwtSecret, label)]),
    ) as Record<SignedLinkKind, Buffer>;
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  private signature(kind: SignedLinkKind, subject: string, exp: number): string {
    return createHmac('sha256', this.keys[kind]).update(`${subject}\n${exp}`).digest('base64url');
  }

  /** `url` with the signature of `subject` appended, and when it expires. */
  sign(kind: SignedLinkKind, subject: string, url: string): { url: string; expiresAt: Date } {
    const { lifetime, roundTo } = KINDS[kind] as LinkKind;
    const now = this.nowSeconds();
    const exp = roundTo ? Math.floor(now / roundTo) * roundTo + lifetime : now + lifetime;
    return {
      url: `${url}?exp=${exp}&sig=${this.signature(kind, subject, exp)}`,
      expiresAt: new Date(exp * 1000),
    };
  }

  /** Whether `exp` and `sig`, as a client sent them, are a live signature of `subject`. */
  verify(kind: SignedLinkKind, subject: string, exp: unknown, sig: unknown): boolean {
    // One spelling only: no leading zeros, and the signature exactly as we write it (base64url decoding
    // alone would forgive padding, other alphabets and the last character's spare bits).
    if (typeof exp !== 'string' || typeof sig !== 'string' || !/^[1-9]\d{0,11}$/.test(exp)) return false;
    const { lifetime, roundTo } = KINDS[kind] as LinkKind;
    const expiry = Number(exp);
    const now = this.nowSeconds();
    // Expired, or further ahead than we ever sign (with a minute's leeway for clocks): both refused.
    if (expiry <= now || expiry > now + lifetime + (roundTo ?? 60)) return false;
    const given = Buffer.from(sig);
    const expected = Buffer.from(this.signature(kind, subject, expiry));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
