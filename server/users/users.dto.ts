import { Name } from '../auth/auth.dto';
import type { User } from './user.entity';

export class UpdateProfileDto {
  @Name()
  name: string;
}

/** The user as the login answer and the browser's session hold it: never a hash or a token version. */
export interface UserResponse {
  id: number;
  name: string;
  email: string;
  user_type: number;
  user_role_id: number;
}

export const toUserResponse = (user: User): UserResponse => ({
  id: user.id,
  name: user.name,
  email: user.email,
  user_type: user.userType,
  user_role_id: user.userRoleId,
});

export const toProfileResponse = (user: User) => ({
  ...toUserResponse(user),
  created_at: user.createdAt.toISOString(),
});
