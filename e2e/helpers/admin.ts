import { join } from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { demoAdmin } from './accounts';

/** Real media the API tests use too: covers and a short MP3, plus an HTML page named .png. */
const FIXTURES = join(__dirname, '..', '..', 'server', 'test', 'fixtures');
export const media = {
  coverJpg: join(FIXTURES, 'cover.jpg'),
  coverPng: join(FIXTURES, 'cover.png'),
  clip: join(FIXTURES, 'clip.mp3'),
  notAnImage: join(FIXTURES, 'page.png'),
};

export interface Session {
  token: string;
  user: { id: number; name: string; email: string; user_type: number; user_role_id: number };
}

/**
 * Signs the demo administrator in through the API once per file (sign-in is rate-limited per address),
 * and puts the session where the site keeps it, as the sign-in form would, before any page script runs.
 */
export async function adminSession(request: APIRequestContext): Promise<Session> {
  const { email, password } = demoAdmin();
  const response = await request.post('/api/v1/user/login', { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Session;
}

export async function useSession(page: Page, session: Session): Promise<void> {
  await page.addInitScript(({ token, user }) => {
    localStorage.setItem('token', token);
    localStorage.setItem('user', JSON.stringify(user));
  }, session);
}

/** A title no other journey uses, so that journeys sharing the demo server never meet. */
export function uniqueTitle(label: string): string {
  return `${label} ${Date.now().toString(36)}`;
}

/** Calls the admin API as the given session, for checks and set-ups that are not the journey itself. */
export async function adminApi<T>(
  request: APIRequestContext,
  session: Session,
  method: 'GET' | 'DELETE',
  path: string,
): Promise<{ status: number; body: T }> {
  const response = await request.fetch(`/api/v1/${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.token}` },
  });
  return { status: response.status(), body: (await response.json()) as T };
}
