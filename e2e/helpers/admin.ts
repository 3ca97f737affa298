import { readFileSync } from 'node:fs';
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

/**
 * A new book of the journey's own, with a chapter: `language` null for a book the aligner has no voice
 * for (its recordings are cut at their pauses).
 */
export async function newBookChapter(
  request: APIRequestContext,
  session: Session,
  language: string | null,
): Promise<{ bookCode: string; chapterId: number }> {
  const headers = { Authorization: `Bearer ${session.token}` };
  const book = await request.post('/api/v1/admin/book', {
    headers,
    multipart: {
      title: uniqueTitle('Recorded book'),
      author: 'A. Narrator',
      narrated_by: 'A. Narrator',
      hours: '1',
      minutes: '0',
      description: 'A book for one journey.',
      difficulty: 'Easy',
      sample_text: 'One.',
      ...(language && { language }),
      book_image: { name: 'cover.jpg', mimeType: 'image/jpeg', buffer: readFileSync(media.coverJpg) },
      sample_audio: { name: 'clip.mp3', mimeType: 'audio/mpeg', buffer: readFileSync(media.clip) },
    },
  });
  expect(book.status(), await book.text()).toBe(200);
  const { id, book_code: bookCode } = ((await book.json()) as { data: { id: number; book_code: string } })
    .data;
  const chapter = await request.post('/api/v1/admin/chapter', {
    headers,
    data: { title: 'Recorded chapter', chapter_no: 1, book_id: id },
  });
  expect(chapter.status(), await chapter.text()).toBe(200);
  return { bookCode, chapterId: ((await chapter.json()) as { data: { id: number } }).data.id };
}

/**
 * Deletes a book a journey made for itself, so that the journeys after it (which share the demo server and
 * pick the newest books) find the demo catalogue as it was.
 */
export async function removeBook(
  request: APIRequestContext,
  session: Session,
  bookCode: string,
): Promise<void> {
  const response = await request.delete(`/api/v1/admin/book/${encodeURIComponent(bookCode)}`, {
    headers: { Authorization: `Bearer ${session.token}` },
  });
  expect(response.status(), await response.text()).toBe(200);
}
