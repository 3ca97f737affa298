/**
 * The layout of a whole book's zip (docs/import.md, "Whole books"), written by the export and read by the
 * import, so that the two cannot drift apart:
 *
 *   book.json                  the book's fields
 *   cover.webp                 the cover (any JPEG, PNG or WebP named cover.*)
 *   sample.mp3                 the sample (any audio named sample.*)
 *   chapters/001/chapter.json  { "title": …, "number": 1 }
 *   chapters/001/phrases.tsv   the chapter import's TSV: phrase, dictionary, audio, translation:<tag>…
 *   chapters/001/001.mp3 …     the clips phrases.tsv names
 */

export const BOOK_JSON = 'book.json';
export const CHAPTER_JSON = 'chapter.json';
export const PHRASES_TSV = 'phrases.tsv';
/** Besides phrases.tsv, a hand-made book may give a chapter's text in any format the chapter import reads. */
export const PHRASES_FILE = /^phrases\.(tsv|csv|txt)$/i;
export const COVER_FILE = /^cover\.[a-z0-9]+$/i;
export const SAMPLE_FILE = /^sample\.[a-z0-9]+$/i;

/**
 * Written into book.json, so that a later version of the format can be told apart. Version 2 added the
 * `translation:<tag>` columns of phrases.tsv, which a version 1 reader refuses as unknown columns; this
 * reader takes both (version 1 archives simply have no translations).
 */
export const BOOK_FORMAT = 'lingonovel-book';
export const BOOK_FORMAT_VERSION = 2;

/** The book fields of book.json, named as the admin book form names them. */
export const BOOK_FIELDS = [
  'title',
  'author',
  'narrated_by',
  'hours',
  'minutes',
  'description',
  'difficulty',
  'sample_text',
  'language',
  'cefr',
] as const;
export type BookField = (typeof BOOK_FIELDS)[number];

export interface BookJson {
  format: typeof BOOK_FORMAT;
  version: number;
  book_code: string;
  title: string;
  author: string;
  narrated_by: string;
  hours: number;
  minutes: number;
  description: string;
  difficulty: string;
  sample_text: string;
  language: string | null;
  /** Since the catalogue's levels; absent from older archives, which import without a level. */
  cefr?: string | null;
}

export interface ChapterJson {
  title: string;
  number: number;
}

/** How large the small files may be before they are refused unread. */
export const JSON_BYTES = 1024 * 1024;

/** A book code as the book form makes them: a slug of lower-case letters, digits and single dashes. */
export const isBookCode = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 120 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);

/** Zero-padded, so that folders and clips sort in their order in any file manager. */
const padded = (n: number, width = 3) => String(n).padStart(width, '0');

export const chapterFolder = (chapterNo: number) => `chapters/${padded(chapterNo)}`;

/** The extension of a stored file (the import goes by content, so it only keeps the name familiar). */
export const extensionOf = (storedPath: string) =>
  /\.([a-z0-9]{1,5})$/i.exec(storedPath)?.[1]?.toLowerCase() ?? 'audio';

/** A clip's name in its chapter's folder: its position, and the extension of the stored file. */
export const clipFileName = (position: number, count: number, storedPath: string) =>
  `${padded(position, Math.max(3, String(count).length))}.${extensionOf(storedPath)}`;
