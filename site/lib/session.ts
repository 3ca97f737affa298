/**
 * The browser session of docs/product.md section 3: a token and a user record in localStorage. Being signed in is
 * decided by the presence of the token alone (section 4). The server checks the token on every call; the
 * stored user only decides what the site shows and where it sends people.
 */

import type { UserResponse } from '../../server/accounts/users/users.dto';

export const UserType = { Admin: 1, Member: 2 } as const;

/** The member role of docs/product.md section 6; new accounts get it. */
export const MEMBER_ROLE_ID = 2;

/** The user as the login answer holds it: the server's own type. */
export type SessionUser = UserResponse;

const TOKEN_KEY = 'token';
const USER_KEY = 'user';
/** Proves this browser signed in before, so strangers' wrong guesses cannot lock it out (docs/security.md). */
const DEVICE_KEY = 'device_token';

// localStorage throws when the browser blocks storage (some private modes, strict cookie settings): treat
// that as signed out rather than breaking the page.
function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the session simply does not survive a reload.
  }
}

export function getToken(): string | null {
  return read(TOKEN_KEY) || null;
}

export function getUser(): SessionUser | null {
  const raw = read(USER_KEY);
  if (!raw) return null;
  try {
    const user = JSON.parse(raw) as Partial<SessionUser> | null;
    if (!user || typeof user !== 'object' || typeof user.user_type !== 'number') return null;
    return user as SessionUser;
  } catch {
    return null;
  }
}

export function setSession(token: string, user: SessionUser): void {
  write(TOKEN_KEY, token);
  setUser(user);
}

/** A password change answers a new token: the old one stops working at once. */
export function setToken(token: string): void {
  write(TOKEN_KEY, token);
}

export function setUser(user: SessionUser): void {
  const { id, name, email, user_type, user_role_id } = user;
  write(USER_KEY, JSON.stringify({ id, name, email, user_type, user_role_id }));
}

/** Kept across sign-outs on purpose: it is not a session, only this browser's standing with the account. */
export function getDeviceToken(): string | null {
  return read(DEVICE_KEY) || null;
}

export function setDeviceToken(token: string): void {
  write(DEVICE_KEY, token);
}

export function clearSession(): void {
  write(TOKEN_KEY, null);
  write(USER_KEY, null);
}

export function isAdmin(user: SessionUser | null): boolean {
  return user?.user_type === UserType.Admin;
}

export function isMember(user: SessionUser | null): boolean {
  return user?.user_role_id === MEMBER_ROLE_ID;
}

/** Where a user lands after signing in (docs/product.md section 4). Keep in step with the inline guard in BaseLayout. */
export function homeFor(user: SessionUser | null): string {
  return isAdmin(user) ? '/admin/dashboard' : '/dashboard';
}

/**
 * A `next` parameter is followed only when it stays on this site. Checking the raw text is not enough:
 * resolving `/..//evil.example` or `/%2e%2e//evil.example` yields the path `//evil.example`, which a
 * browser reads as another host. So the address is resolved against our origin, and the result is kept
 * only if it has our origin and a path that does not start with `//` or `/\`. Anything else: null, and
 * the caller falls back to the role's home page.
 */
export function safeNextPath(next: string | null, origin = window.location.origin): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  try {
    const url = new URL(next, origin);
    if (url.origin !== origin) return null;
    const path = url.pathname + url.search + url.hash;
    if (path.startsWith('//') || path.startsWith('/\\')) return null;
    return path;
  } catch {
    return null;
  }
}

/** The `next` page of the current address, when it is one of ours (see safeNextPath). */
export function currentNextPath(): string | null {
  return safeNextPath(new URLSearchParams(window.location.search).get('next'));
}

/** A link to an account page (sign-in, sign-up) that carries `next` on, so the way back is not lost. */
export function withNext(path: string, next: string | null): string {
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
}
