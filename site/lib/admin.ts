/**
 * What the admin islands share: the shapes the admin API answers (docs/api.md), the routes of docs/product.md
 * section 2, and a few formatters. Nothing here calls the API: site/lib/api.ts does.
 */
import type { BookListAnswer } from '../../server/publishing/books/book-list.dto';
import type { BookResponse } from '../../server/content/catalogue/book-response';
import { CEFR_LEVELS, DIFFICULTIES, type CefrLevel } from '../../server/content/catalogue/book-levels';
import type {
  BookChaptersResponse,
  ChapterDetailResponse,
  ChapterSummaryResponse,
} from '../../server/publishing/chapters/chapter-responses';
import type {
  ChapterPhrasesResponse,
  PhraseResponse,
} from '../../server/publishing/phrases/phrase-responses';
import { ApiError, GENERIC_ERROR } from './api';

export { CEFR_LEVELS, DIFFICULTIES, type CefrLevel };
/** What each CEFR level means, for the book form's select and the book detail: the catalogue's own names. */
export { LEVEL_NAMES } from './cefr';
export { languageName } from '../../server/content/catalogue/languages';

/** A book as the admin API answers it (the server's own type, so the two cannot drift apart). */
export type Book = BookResponse;
/** GET admin/book: a page of books with its total and facet counts. */
export type BookList = BookListAnswer;

/** The admin API's chapter and phrase answers: the server's own classes, which the OpenAPI document describes. */
export type ChapterSummary = ChapterSummaryResponse;
/** GET admin/chapter?book_id=: `title` is the book's. */
export type BookChapters = BookChaptersResponse;
/** GET admin/chapter/{id}. */
export type Chapter = ChapterDetailResponse;
export type Phrase = PhraseResponse;
/** GET admin/phrase?chapter_id=: `title` is the chapter's. */
export type ChapterPhrases = ChapterPhrasesResponse;

export interface Saved<T> {
  message: string;
  data: T;
}

/** The admin routes of docs/product.md section 2 (plus the phrase editor, beyond the spec). */
export const adminRoutes = {
  dashboard: '/admin/dashboard',
  createBook: '/admin/dashboard/create-book',
  importBook: '/admin/books/import',
  books: '/admin/books',
  /** Dictionaries and word forms for the reader's lookups (docs/dictionaries-admin.md). */
  dictionaries: '/admin/dictionaries',
  editBook: (code: string) => `/admin/books/edit/${encodeURIComponent(code)}`,
  bookDetail: (code: string) => `/admin/book-detail/${encodeURIComponent(code)}`,
  chapters: (bookId: number | string) => `/admin/chapter/list/${bookId}`,
  createChapter: (bookId: number | string) => `/admin/books/chapter/create/${bookId}`,
  editChapter: (id: number | string) => `/admin/chapters/edit/${id}`,
  phrases: (chapterId: number | string) => `/admin/chapter/phrase/list/${chapterId}`,
  createPhrase: (chapterId: number | string) => `/admin/chapter/phrase/create/${chapterId}`,
  importPhrases: (chapterId: number | string) => `/admin/chapter/phrase/import/${chapterId}`,
  editPhrase: (id: number | string) => `/admin/chapter/phrase/edit/${id}`,
  publicBook: (code: string) => `/book-detail/${encodeURIComponent(code)}`,
};

/** docs/product.md's Book List: "hours shown with H, minutes with M". */
export function formatBookTime(hours: number, minutes: number): string {
  return `${hours}H ${minutes}M`;
}

/** An audio length for people: "0:42", "12:05", "1:02:09". */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * The message a list or detail shows when its load fails: docs/product.md section 8 puts the server's message of
 * a 404 in the table; a 422 (an id that is not a number) explains itself too.
 */
export function loadErrorMessage(error: unknown): string {
  if (error instanceof ApiError && (error.status === 404 || error.status === 422)) return error.message;
  return GENERIC_ERROR;
}

/** Moves one item of a list to another index, as drag-and-drop and the keyboard controls do. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = list.slice();
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}
