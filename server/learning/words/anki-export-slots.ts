import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { TooManyRequests } from '../../platform/common/rate-windows';
import type { User } from '../../accounts/users/user.entity';

/** Anki exports this process prepares at once, whoever asks: each reads every clip and checksums it. */
export const MAX_ANKI_EXPORTS = 2;
/** An export of a thousand words takes a few seconds; a client may try again after this. */
export const ANKI_RETRY_MS = 5_000;
export const ANKI_ONE_AT_A_TIME = 'Your Anki export is still being prepared. Please wait for it to finish.';
export const ANKI_BUSY =
  'Too many Anki exports are being prepared right now. Please try again in a few seconds.';

/**
 * Bounds the Anki exports running at once: one per member, MAX_ANKI_EXPORTS in all, so that a burst of
 * exports cannot take the server's time from everyone else. A slot is held until the response closes
 * (sent, failed or dropped by the client), whatever happens in between. Counted per process: each
 * instance protects its own event loop. The CSV export is small work and is not bounded.
 */
@Injectable()
export class AnkiExportSlots implements CanActivate {
  private readonly members = new Set<number>();

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { user?: User }>();
    const res = http.getResponse<Response>();
    if (req.query.format !== 'anki') return true;
    // The auth guard has run: every caller here is a member.
    const userId = req.user!.id;
    if (this.members.has(userId)) throw new TooManyRequests(ANKI_RETRY_MS, ANKI_ONE_AT_A_TIME);
    if (this.members.size >= MAX_ANKI_EXPORTS) throw new TooManyRequests(ANKI_RETRY_MS, ANKI_BUSY);
    this.members.add(userId);
    res.once('close', () => this.members.delete(userId));
    return true;
  }
}
