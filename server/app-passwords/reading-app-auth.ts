import { applyDecorators, Injectable, UseGuards, type CanActivate } from '@nestjs/common';
import { OptionalAuth } from '../auth/auth.decorators';

/**
 * STUB: helper D1 builds it. Sets `request.user` from HTTP Basic (email + app password) when the request
 * carries it; wrong credentials are a 401 with `WWW-Authenticate: Basic realm="Lingonovel"`.
 */
@Injectable()
export class ReadingAppGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

/**
 * The OPDS and download routes only (docs/formats.md "Who is asking"): a bearer token, HTTP Basic with an
 * app password, or neither (a visitor). `@MaybeUser()` then gives the member, if any.
 */
export const ReadingAppAuth = () => applyDecorators(OptionalAuth(), UseGuards(ReadingAppGuard));
