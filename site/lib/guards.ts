/**
 * The guards of docs/product.md section 6, as pure rules: each answers where to send someone who may not stay, or
 * null. They only decide what the site shows; the server's checks are the real protection. Every /admin
 * page wraps its content in islands/AdminGuard.tsx, which applies `adminOnly`.
 */
import { getToken, getUser, isAdmin, isMember, type SessionUser } from './session';

export type Guard = (session: { token: string | null; user: SessionUser | null }) => string | null;

/** Admin guard: only user_type 1; everyone else, signed out or not, goes to /401. */
export const adminOnly: Guard = ({ token, user }) => (token && isAdmin(user) ? null : '/401');

/** Member guard: only user_role_id 2; everyone else, signed out or not, goes to the home page. */
export const membersOnly: Guard = ({ token, user }) => (token && isMember(user) ? null : '/');

/** Any signed-in user; a visitor signs in first and comes back to `path`. */
export const signedIn =
  (path: string): Guard =>
  ({ token }) =>
    token ? null : `/login?next=${encodeURIComponent(path)}`;

/** Runs a guard against the stored session: the user when allowed, or the redirect target. */
export function checkGuard(guard: Guard): { user: SessionUser | null; redirect: string | null } {
  const session = { token: getToken(), user: getUser() };
  return { user: session.user, redirect: guard(session) };
}
