import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { UserType, type User } from '../users/user.entity';

export const IS_PUBLIC = 'lingonovel:public';
export const ROLES = 'lingonovel:roles';

/** Opens a route to visitors without a token. Everything else needs one (deny by default). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const OPTIONAL_AUTH = 'lingonovel:optional-auth';
/**
 * A public route that reads the token when one comes: a valid one sets the user, a missing, bad or
 * expired one leaves the request a visitor's. The route decides what a visitor gets.
 */
export const OptionalAuth = () => applyDecorators(Public(), SetMetadata(OPTIONAL_AUTH, true));

/** The signed-in user on an @OptionalAuth() route, or undefined for a visitor. */
export const MaybeUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): User | undefined =>
    ctx.switchToHttp().getRequest<AuthenticatedRequest>().user,
);

/** Restricts a route or controller further, to these user types. */
export const Roles = (...types: UserType[]) => SetMetadata(ROLES, types);

/** Administrators only: on every controller under /admin, where it can be seen (the guard also refuses any without it). */
export const AdminOnly = () => Roles(UserType.Admin);

export interface AuthenticatedRequest extends Request {
  user?: User;
}

/** The signed-in user, as loaded by the AuthGuard for this request. */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): User => {
  const user = ctx.switchToHttp().getRequest<AuthenticatedRequest>().user;
  if (!user) throw new Error('CurrentUser used on a public route');
  return user;
});
