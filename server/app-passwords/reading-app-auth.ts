import {
  applyDecorators,
  Injectable,
  UnauthorizedException,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Response } from 'express';
import { OptionalAuth, type AuthenticatedRequest } from '../auth/auth.decorators';
import { LOGIN_FAILURES_ALLOWED, LOGIN_LOCK_MS } from '../auth/auth.service';
import { RateWindows, TooManyRequests, type SlidingWindow } from '../common/rate-limit';
import { AppPasswords } from './app-passwords.service';

export const BASIC_REALM = 'Basic realm="Lingonovel"';
export const BAD_APP_PASSWORD =
  'These credentials do not match our records. Use your email and an app password made on your profile.';
const LOCKED =
  'Too many failed sign-in attempts for this account. Please try again later or reset your password.';
const TOO_MANY_FROM_HERE = 'Too many failed sign-in attempts from this address. Please try again later.';
/** Failed Basic sign-ins per client address, whatever the accounts: a reading app retries a few times. */
const ADDRESS_FAILURES_ALLOWED = 20;

/** `Authorization: Basic <base64 of email:password>` split in two, or null when it is no such header. */
function basicCredentials(
  header: string | undefined,
): { email: string; password: string } | null | 'malformed' {
  const match = /^Basic[ ]+([A-Za-z0-9+/=]*)\s*$/i.exec(header ?? '');
  if (!match) return /^Basic\b/i.test(header ?? '') ? 'malformed' : null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return 'malformed';
  return { email: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * HTTP Basic with an app password, on the OPDS and download routes only (docs/formats.md "Who is
 * asking"). The session strategy reads `Bearer` alone, so Basic opens nothing anywhere else. Runs after
 * the AuthGuard: a valid bearer token has set the member already, and no Basic header leaves a visitor.
 *
 * Failures count against sign-in's own per-account window (the same name and limit, so the hits are
 * shared both ways: five failed sign-ins lock Basic, five failed Basic lock sign-in) and a per-address
 * one. A lock is checked without counting, and only a failure counts: an app is asked for on every
 * request, and a 120-bit secret is beyond guessing, so the windows are for stopping noise and keeping one
 * lock, not for the odds. The header's value is never logged: the request log writes method, path and
 * status only (common/request-context.ts).
 */
@Injectable()
export class ReadingAppGuard implements CanActivate {
  private readonly accountFailures: SlidingWindow;
  private readonly addressFailures: SlidingWindow;

  constructor(
    private readonly passwords: AppPasswords,
    windows: RateWindows,
  ) {
    this.accountFailures = windows.window('login:email', LOGIN_FAILURES_ALLOWED, LOGIN_LOCK_MS);
    this.addressFailures = windows.window('app-password:ip', ADDRESS_FAILURES_ALLOWED, LOGIN_LOCK_MS);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<Response>();
    const credentials = basicCredentials(request.headers.authorization);
    if (credentials === null) return true;
    const refuse = () => {
      response.setHeader('WWW-Authenticate', BASIC_REALM);
      return new UnauthorizedException(BAD_APP_PASSWORD);
    };
    const address = request.ip ?? 'unknown';
    const addressWait = await this.addressFailures.wait(address);
    if (addressWait > 0) throw new TooManyRequests(response, addressWait, TOO_MANY_FROM_HERE);
    if (credentials === 'malformed') {
      await this.addressFailures.hit(address);
      throw refuse();
    }
    // Keyed as sign-in keys it (the email as LoginDto normalises it), so the counts are one.
    const email = credentials.email.trim().toLowerCase();
    const accountWait = await this.accountFailures.wait(email);
    if (accountWait > 0) throw new TooManyRequests(response, accountWait, LOCKED);
    const user = await this.passwords.authenticate(email, credentials.password);
    if (!user) {
      // One after the other: each hit is a transaction, and SQLite's one connection runs one at a time.
      await this.accountFailures.hit(email);
      await this.addressFailures.hit(address);
      throw refuse();
    }
    request.user = user;
    return true;
  }
}

/**
 * The OPDS and download routes only (docs/formats.md "Who is asking"): a bearer token, HTTP Basic with an
 * app password, or neither (a visitor). `@MaybeUser()` then gives the member, if any.
 */
export const ReadingAppAuth = () => applyDecorators(OptionalAuth(), UseGuards(ReadingAppGuard));
