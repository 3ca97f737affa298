import {
  applyDecorators,
  Injectable,
  SetMetadata,
  UnauthorizedException,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { SESSION_INVALID } from '../auth/auth.guard';
import { OptionalAuth, type AuthenticatedRequest } from '../auth/auth.decorators';
import { LOGIN_FAILURES_ALLOWED, LOGIN_LOCK_MS } from '../auth/auth.service';
import { RateWindows, TooManyRequests, type SlidingWindow } from '../../platform/common/rate-windows';
import { AppPasswords } from './app-passwords.service';

export const BASIC_REALM = 'Basic realm="Lingonovel"';
export const BAD_APP_PASSWORD =
  'These credentials do not match our records. Use your email and an app password made on your profile.';
const LOCKED =
  'Too many wrong app passwords for this account. Please try again later, or make a new app password on your profile.';
const TOO_MANY_FROM_HERE = 'Too many failed sign-in attempts from this address. Please try again later.';
/** Failed Basic sign-ins per client address, whatever the accounts: a reading app retries a few times. */
const ADDRESS_FAILURES_ALLOWED = 20;
const BEARER_MUST_BE_VALID = 'lingonovel:bearer-must-be-valid';
const LINK_PARAMS = 'lingonovel:link-params';
/** Read by the OpenAPI document (http/openapi.ts): these routes take HTTP Basic too. */
export const READING_APP_AUTH = 'lingonovel:reading-app-auth';

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
 * The credential is checked first and a valid app password always passes: the windows are consulted
 * only after a failure. So knowing a member's email is not enough to lock their reading apps, one app
 * with a stale password cannot lock the member's sign-in (its failures count in a window of their own,
 * not sign-in's), and a wrong guess behind a shared address blocks nobody's right one. A 120-bit secret
 * is beyond guessing; the windows only stop noise. The header's value is never logged: the request log
 * writes method, path and status only (http/request-context.ts).
 */
@Injectable()
export class ReadingAppGuard implements CanActivate {
  private readonly accountFailures: SlidingWindow;
  private readonly addressFailures: SlidingWindow;

  constructor(
    private readonly passwords: AppPasswords,
    private readonly reflector: Reflector,
    windows: RateWindows,
  ) {
    this.accountFailures = windows.window('app-password:email', LOGIN_FAILURES_ALLOWED, LOGIN_LOCK_MS);
    this.addressFailures = windows.window('app-password:ip', ADDRESS_FAILURES_ALLOWED, LOGIN_LOCK_MS);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<Response>();
    const targets = [context.getHandler(), context.getClass()];
    // A signed link decides alone who is asking (the route checks it): a stale token or a wrong password
    // beside a valid link must not spoil it. Basic beside any link is neither checked nor counted; a bearer
    // token was checked by the AuthGuard already, and is ignored.
    const linkParams = this.reflector.getAllAndOverride<readonly string[]>(LINK_PARAMS, targets) ?? [];
    if (linkParams.some((name) => request.query[name] !== undefined)) return true;
    const header = request.headers.authorization;
    const credentials = basicCredentials(header);
    if (credentials === null) {
      // A download asked for with a token that is no longer valid is told so, not given the sample.
      const strict = this.reflector.getAllAndOverride<boolean>(BEARER_MUST_BE_VALID, targets);
      if (strict && !request.user && /^Bearer\b/i.test(header ?? ''))
        throw new UnauthorizedException(SESSION_INVALID);
      return true;
    }
    let email: string | null = null;
    if (credentials !== 'malformed') {
      // Keyed as sign-in keys it (the email as LoginDto normalises it).
      email = credentials.email.trim().toLowerCase();
      const user = await this.passwords.authenticate(email, credentials.password);
      if (user) {
        request.user = user;
        return true;
      }
    }
    // One after the other: each hit is a transaction, and SQLite's one connection runs one at a time.
    const accountWait = email === null ? 0 : await this.accountFailures.hit(email);
    if (accountWait > 0) throw new TooManyRequests(accountWait, LOCKED);
    const addressWait = await this.addressFailures.hit(request.ip ?? 'unknown');
    if (addressWait > 0) throw new TooManyRequests(addressWait, TOO_MANY_FROM_HERE);
    response.setHeader('WWW-Authenticate', BASIC_REALM);
    throw new UnauthorizedException(BAD_APP_PASSWORD);
  }
}

/**
 * The OPDS and download routes only (docs/formats.md "Who is asking"): a bearer token, HTTP Basic with an
 * app password, or neither (a visitor). `@MaybeUser()` then gives the member, if any. With
 * `bearerMustBeValid` (the download routes), a bearer token that is present but not valid is a 401
 * rather than a visitor's answer. With `linkParams` (the parameters that make a request a signed link's),
 * a request that carries any of them is let through without taking its credentials into account: the
 * route's link check decides, 403 for a link that is not valid.
 */
export const ReadingAppAuth = (
  options: { bearerMustBeValid?: boolean; linkParams?: readonly string[] } = {},
) =>
  applyDecorators(
    OptionalAuth(),
    SetMetadata(READING_APP_AUTH, true),
    SetMetadata(BEARER_MUST_BE_VALID, options.bearerMustBeValid === true),
    SetMetadata(LINK_PARAMS, options.linkParams ?? []),
    UseGuards(ReadingAppGuard),
  );
