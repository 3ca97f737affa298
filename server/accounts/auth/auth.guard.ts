import {
  ForbiddenException,
  Injectable,
  Logger,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportGuard } from '@nestjs/passport';
import { UserType, type User } from '../users/user.entity';
import { SESSION_STRATEGY } from './jwt.strategy';
import { IS_PUBLIC, OPTIONAL_AUTH, ROLES, type AuthenticatedRequest } from './auth.decorators';

export const SESSION_INVALID = 'Your session has expired or is not valid. Please sign in.';

/**
 * Runs the bearer strategy (passport-jwt, accounts/auth/jwt.strategy.ts) without letting passport answer: a
 * missing, bad or outdated token leaves the request without a user, and AuthGuard decides what that
 * means. Passport's own 401 says only "Unauthorized".
 */
class SessionAuthentication extends PassportGuard(SESSION_STRATEGY) {
  handleRequest<T = User>(error: unknown, user: T | false): T {
    // A failure inside the strategy (the database, say) is ours, not the caller's: never a 401 that would
    // sign the member out. Thrown again as the strategy gave it, whatever it is: the error filter sorts it.
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrown unchanged (`unknown`, narrowed to `{}`)
    if (error) throw error;
    return (user || undefined) as T;
  }
}

/**
 * Every route needs a valid bearer token unless marked @Public() (deny by default). Administrators'
 * controllers say so with @AdminOnly(); a controller under `admin` without it is refused anyway, and a
 * test fails (server/test/security.e2e-spec.ts), so a new admin route cannot be left open by mistake.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger(AuthGuard.name);
  private readonly session = new SessionAuthentication();

  constructor(private readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (this.reflector.getAllAndOverride<boolean>(OPTIONAL_AUTH, targets)) {
      await this.session.canActivate(context);
      return true;
    }
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    await this.session.canActivate(context);
    const user = request.user;
    if (!user) throw new UnauthorizedException(SESSION_INVALID);

    const required = this.reflector.getAllAndOverride<UserType[]>(ROLES, targets);
    if (!required && this.underAdmin(context)) {
      this.logger.error(`${context.getClass().name} serves /admin without @AdminOnly(): refused`);
      throw new ForbiddenException('You do not have permission to do this.');
    }
    if (required && !required.includes(user.userType)) {
      throw new ForbiddenException('You do not have permission to do this.');
    }
    return true;
  }

  /** The route itself (its full path, as Express matched it) is under /api/v1/admin. */
  private underAdmin(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const path = String((request.route as { path?: string | RegExp } | undefined)?.path ?? request.path);
    return /^\/api\/v1\/admin(\/|$)/i.test(path);
  }
}
