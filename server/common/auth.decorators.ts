import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { User, UserType } from '../users/user.entity';

export const IS_PUBLIC = 'lingonovel:public';
export const ROLES = 'lingonovel:roles';

/** Opens a route to visitors without a token. Everything else needs one (deny by default). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Restricts a route or controller further, to these user types. */
export const Roles = (...types: UserType[]) => SetMetadata(ROLES, types);

export interface AuthenticatedRequest extends Request {
  user?: User;
}

/** The signed-in user, as loaded by the AuthGuard for this request. */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): User => {
  const user = ctx.switchToHttp().getRequest<AuthenticatedRequest>().user;
  if (!user) throw new Error('CurrentUser used on a public route');
  return user;
});
