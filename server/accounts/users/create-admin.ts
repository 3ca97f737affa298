import type { DataSource, EntityManager } from 'typeorm';
import { User, UserType } from './user.entity';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../auth/password';
import { storedTextProblem } from '../../platform/common/stored-text';

export interface CreateAdminInput {
  email?: string;
  password?: string;
  name?: string;
  /**
   * The password's hash made beforehand (hashPassword), so that a caller's transaction is not held open
   * for argon2's time: on SQLite's one connection, other requests' writes would join it meanwhile.
   */
  passwordHash?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Whether createAdmin would make a new account (so it needs a password): a valid address no member has.
 * An invalid address or a missing name is left to createAdmin to refuse, before any password is asked.
 */
export async function isNewAdmin(db: DataSource, input: CreateAdminInput): Promise<boolean> {
  const email = input.email?.trim().toLowerCase();
  if (!email || !EMAIL.test(email) || !input.name?.trim()) return false;
  return !(await db.getRepository(User).existsBy({ email }));
}

/**
 * The only way to get an administrator. A new address becomes an administrator with the given name and
 * password; an existing member is promoted, and gets the new password if one is given.
 */
export async function createAdmin(
  db: DataSource | EntityManager,
  input: CreateAdminInput,
): Promise<{ message: string; user: User }> {
  const email = input.email?.trim().toLowerCase();
  if (!email || !EMAIL.test(email)) throw new Error('A valid --email is required.');
  const password = input.password;
  if (
    password !== undefined &&
    (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH)
  ) {
    throw new Error(`The password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`);
  }
  // The sign-up form's rule for a name (docs/api.md, "Text"); a password takes any character.
  const nameProblem = input.name === undefined ? null : storedTextProblem(input.name);
  if (nameProblem) throw new Error(`The --name ${nameProblem}`);
  const users = db.getRepository(User);
  const existing = await users.findOneBy({ email });
  if (existing) {
    existing.userType = UserType.Admin;
    existing.userRoleId = UserType.Admin;
    if (input.name?.trim()) existing.name = input.name.trim();
    if (password !== undefined) {
      existing.passwordHash = input.passwordHash ?? (await hashPassword(password));
      existing.tokenVersion += 1;
    }
    const user = await users.save(existing);
    return { user, message: `Promoted ${email} to administrator.` };
  }
  const name = input.name?.trim();
  if (!name) throw new Error('A --name is required for a new administrator.');
  if (password === undefined) throw new Error('A --password is required for a new administrator.');
  const user = await users.save({
    name,
    email,
    passwordHash: input.passwordHash ?? (await hashPassword(password)),
    userType: UserType.Admin,
    userRoleId: UserType.Admin,
  });
  return { user, message: `Created administrator ${email}.` };
}
