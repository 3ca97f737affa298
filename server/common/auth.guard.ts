import {
  ForbiddenException,
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PATH_METADATA } from '@nestjs/common/constants';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { User, UserType } from '../users/user.entity';
import { SessionTokens } from '../auth/session-tokens.service';
import { IS_PUBLIC, OPTIONAL_AUTH, ROLES, type AuthenticatedRequest } from './auth.decorators';

/**
 * Every route needs a valid bearer token unless marked @Public(). Controllers under `admin` need an
 * administrator even without @Roles, so a new admin route cannot be left open by mistake.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: SessionTokens,
    @InjectRepository(User) private readonly users: Repository<User>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (this.reflector.getAllAndOverride<boolean>(OPTIONAL_AUTH, targets)) {
      request.user = (await this.sessionUser(request)) ?? undefined;
      return true;
    }
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const user = await this.sessionUser(request);
    if (!user) throw new UnauthorizedException('Your session has expired or is not valid. Please sign in.');
    request.user = user;

    const controllerPath = String(Reflect.getMetadata(PATH_METADATA, context.getClass()) ?? '');
    const required =
      this.reflector.getAllAndOverride<UserType[]>(ROLES, targets) ??
      (controllerPath.replace(/^\//, '').startsWith('admin') ? [UserType.Admin] : null);
    if (required && !required.includes(user.userType)) {
      throw new ForbiddenException('You do not have permission to do this.');
    }
    return true;
  }

  /** The user a valid bearer token names, or null for no token, a bad one or an outdated one. */
  private async sessionUser(request: AuthenticatedRequest): Promise<User | null> {
    const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(request.headers.authorization ?? '');
    const claims = match ? this.tokens.verify(match[1]) : null;
    const user = claims ? await this.users.findOneBy({ id: claims.userId }) : null;
    return user && claims && user.tokenVersion === claims.tokenVersion ? user : null;
  }
}
