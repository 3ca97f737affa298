import {
  CEFR_LEVELS,
  DIFFICULTIES,
  type CefrLevel,
  type Difficulty,
} from '../../content/catalogue/book-levels';
import type { FieldErrors } from '../../platform/common/api-error';
import type { AudioType } from '../../platform/media/sniff';
import { BOOK_FIELDS, isBookCode, type BookField } from './book-archive';
import type { MatchedRow } from './clip-matching';
import { fieldTextProblem, storedTextProblem } from '../../platform/common/stored-text';
import {
  count,
  list,
  milliseconds,
  nullable,
  object,
  oneOf,
  optional,
  ordinal,
  parse,
  refuse,
  share,
  stagedName,
  text,
  texts,
  translations,
  voiceName,
  type Check,
} from './manifest-checks';
import { rowTextProblem } from './text-formats';

// The API's error filter and the controllers know these as the manifests'.

/**
 * What staging found, kept as JSON in the import's row (`imports.manifest`) until the commit, and read
 * back here: parsed and checked field by field, never cast. A manifest the checks refuse (a row edited by
 * hand, a half-written upgrade) is a DamagedImport, which the API answers with DAMAGED_IMPORT_MESSAGE (409)
 * rather than a 500 from deep inside a commit.
 */

/** A chapter recorded in one take: where it is cut, and how long it lasts. */
export interface RecordingManifest {
  file: string;
  duration_ms: number;
  cuts: number[];
  /** Aligned to its text (server/publishing/alignment/): where the text begins and ends, and each row's confidence. */
  start_ms?: number;
  end_ms?: number;
  confidence?: number[];
  /** The reference voice it is (or was) aligned with, chosen at staging from the book's language. */
  voice?: string;
}

export interface ChapterRow extends MatchedRow {
  duration_ms: number | null;
  /** The clip's audio type, by its content. */
  type?: AudioType;
}

/** A chapter import's manifest. */
export interface ChapterManifest {
  format: string;
  rows: ChapterRow[];
  errors: string[];
  /** Set in recording mode: the clips are cut from it at commit. */
  recording?: RecordingManifest & { type: AudioType };
  notice?: string | null;
}

/** A whole book's manifest. */
export interface BookManifest {
  /** The book_code of book.json, when it is one; the commit keeps it if it is free. */
  code: string | null;
  /** The fields of book.json after the book form's own clean-up (trimmed text, whole numbers). */
  book: Record<BookField, unknown>;
  /** Problems per field, named as the admin book form names them (book_image, sample_audio included). */
  fieldErrors: FieldErrors;
  /** Files of the stage, by the number names the extraction gave them. */
  cover: { name: string; file: string } | null;
  sample: { name: string; file: string; duration_ms: number | null } | null;
  chapters: BookChapter[];
  /** Problems of the whole book that belong to no field and no chapter. */
  errors: string[];
}

export interface BookChapter {
  folder: string;
  chapter_no: number | null;
  title: string;
  rows: ChapterRow[];
  errors: string[];
}

/** A book's fields as the commit creates it: those of a manifest whose fields have no problem. */
export interface BookFields {
  title: string;
  author: string;
  narrated_by: string;
  hours: number;
  minutes: number;
  description: string;
  difficulty: Difficulty;
  sample_text: string;
  language: string | null;
  cefr: CefrLevel | null;
}

const AUDIO_TYPES: readonly AudioType[] = ['mp3', 'm4a', 'aac', 'ogg', 'wav'];
const audioType = oneOf(AUDIO_TYPES, 'an audio type');
const difficulty = oneOf(DIFFICULTIES, 'a difficulty');
/** A level, or none: an import staged before levels existed has no such field at all. */
const cefr: Check<CefrLevel | null> = (value, at) =>
  value === undefined || value === null ? null : oneOf(CEFR_LEVELS, 'a CEFR level')(value, at);

/**
 * A row as staging writes it. With clips (not segments of a recording), a row with no problem names its
 * staged clip and the clip's type: the commit stores that file, and the preview plays it.
 */
function chapterRow(value: unknown, at: string, withClip: boolean): ChapterRow {
  const row = object(value, at);
  const read: ChapterRow = {
    n: ordinal(row.n, `${at}.n`),
    phrase: text(row.phrase, `${at}.phrase`),
    dictionary: text(row.dictionary, `${at}.dictionary`),
    translations: translations(row.translations, `${at}.translations`),
    clip: nullable(text)(row.clip, `${at}.clip`),
    file: nullable(stagedName)(row.file, `${at}.file`),
    error: nullable(text)(row.error, `${at}.error`),
    duration_ms: nullable(milliseconds)(row.duration_ms, `${at}.duration_ms`),
  };
  const type = optional(audioType)(row.type, `${at}.type`);
  if (type) read.type = type;
  if (withClip && read.error === null && (read.file === null || !read.type))
    refuse(at, 'has no problem but no staged clip');
  return read;
}

function recording(value: unknown, at: string): NonNullable<ChapterManifest['recording']> {
  const found = object(value, at);
  return {
    file: stagedName(found.file, `${at}.file`),
    type: audioType(found.type, `${at}.type`),
    duration_ms: milliseconds(found.duration_ms, `${at}.duration_ms`),
    cuts: list(milliseconds)(found.cuts, `${at}.cuts`),
    ...aligned(found, at),
  };
}

/** An aligned recording's start, end and confidences; the start and end may also be set by hand. */
function aligned(found: Record<string, unknown>, at: string): Partial<RecordingManifest> {
  return {
    ...(found.start_ms !== undefined && { start_ms: milliseconds(found.start_ms, `${at}.start_ms`) }),
    ...(found.end_ms !== undefined && { end_ms: milliseconds(found.end_ms, `${at}.end_ms`) }),
    ...(found.confidence !== undefined && { confidence: list(share)(found.confidence, `${at}.confidence`) }),
    ...(found.voice !== undefined && { voice: voiceName(found.voice, `${at}.voice`) }),
  };
}

/** A chapter import's manifest, checked; a DamagedImport when it is not what staging writes. */
export function readChapterManifest(json: string): ChapterManifest {
  const manifest = parse(json);
  const read: ChapterManifest = {
    format: text(manifest.format, 'format'),
    rows: [],
    errors: texts(manifest.errors, 'errors'),
  };
  const found = optional(recording)(manifest.recording, 'recording');
  if (found) read.recording = found;
  const notice = optional(nullable(text))(manifest.notice, 'notice');
  if (notice !== undefined) read.notice = notice;
  read.rows = list((row, at) => chapterRow(row, at, !found))(manifest.rows, 'rows');
  recheckRows(read.rows);
  return read;
}

/** Each book field as the book form leaves it once it has no problem. */
const BOOK_FIELD_CHECKS: { [F in BookField]: Check<BookFields[F]> } = {
  title: text,
  author: text,
  narrated_by: text,
  hours: count,
  minutes: count,
  description: text,
  difficulty,
  sample_text: text,
  language: nullable(text),
  cefr,
};

const fieldErrors: Check<FieldErrors> = (value, at) =>
  Object.fromEntries(
    Object.entries(object(value, at)).map(([field, messages]) => [field, texts(messages, `${at}.${field}`)]),
  );

const stagedFile = (value: unknown, at: string) => {
  const item = object(value, at);
  return { name: text(item.name, `${at}.name`), file: stagedName(item.file, `${at}.file`), item };
};

function bookChapter(value: unknown, at: string): BookChapter {
  const chapter = object(value, at);
  return {
    folder: text(chapter.folder, `${at}.folder`),
    chapter_no: nullable(ordinal)(chapter.chapter_no, `${at}.chapter_no`),
    title: text(chapter.title, `${at}.title`),
    rows: list((row, rowAt) => chapterRow(row, rowAt, true))(chapter.rows, `${at}.rows`),
    errors: texts(chapter.errors, `${at}.errors`),
  };
}

/** Book fields added after the first manifests were written. */
const ADDED_BOOK_FIELDS = new Set<BookField>(['cefr']);

/** A whole book's manifest, checked; a DamagedImport when it is not what staging writes. */
export function readBookManifest(json: string): BookManifest {
  const manifest = parse(json);
  const code = nullable(text)(manifest.code, 'code');
  const found = object(manifest.book, 'book');
  const book = {} as Record<BookField, unknown>;
  for (const field of BOOK_FIELDS) {
    // Any JSON value: the preview shows a field as book.json has it, and fieldErrors says what is wrong.
    // A field added since (cefr) is absent from an import staged by an older version: none.
    if (!(field in found) && !ADDED_BOOK_FIELDS.has(field)) refuse(`book.${field}`, 'is missing');
    book[field] = found[field] ?? null;
  }
  const cover = nullable(stagedFile)(manifest.cover, 'cover');
  const sample = nullable(stagedFile)(manifest.sample, 'sample');
  const read: BookManifest = {
    code: code === null || isBookCode(code) ? code : refuse('code', 'is not a book code'),
    book,
    fieldErrors: fieldErrors(manifest.fieldErrors, 'fieldErrors'),
    cover: cover && { name: cover.name, file: cover.file },
    sample: sample && {
      name: sample.name,
      file: sample.file,
      duration_ms: nullable(milliseconds)(sample.item.duration_ms, 'sample.duration_ms'),
    },
    chapters: list(bookChapter)(manifest.chapters, 'chapters'),
    errors: texts(manifest.errors, 'errors'),
  };
  recheckBook(read);
  // A book with no problem left must be one the commit can create: found damaged now, not halfway.
  if (!bookProblems(read).length) readyBook(read);
  return read;
}

/*
 * The character rule (platform/common/stored-text.ts) applied again to a manifest read back: an import staged by a
 * version without it (an import stays staged 24 hours) would otherwise commit what staging now refuses.
 * What it refuses becomes a problem named as staging names it, so the preview lists it and the commit is
 * the same 422. Cheap: the texts are parsed already; a manifest staged since finds nothing new.
 */
function recheckRows(rows: ChapterRow[]): void {
  for (const row of rows) row.error ??= rowTextProblem(row);
}

function recheckBook(manifest: BookManifest): void {
  for (const field of BOOK_FIELDS) {
    const problem = manifest.fieldErrors[field] ? null : fieldTextProblem(field, manifest.book[field]);
    if (problem) manifest.fieldErrors[field] = [problem];
  }
  for (const chapter of manifest.chapters) {
    // An EPUB's chapter keeps its title and names the problem (epub-chapters.ts): named once.
    const problem = storedTextProblem(chapter.title);
    if (problem && !chapter.errors.includes(`Its title ${problem}`))
      chapter.errors.push(`Its title ${problem}`);
    recheckRows(chapter.rows);
  }
}

/** The problems of one chapter of a book: its own, then its rows'. */
export const chapterProblems = (chapter: BookChapter) => [
  ...chapter.errors,
  ...chapter.rows.filter((row) => row.error).map((row) => `Row ${row.n}: ${row.error}`),
];

/** Every problem of a staged book, the book's first; the commit waits until there are none. */
export function bookProblems(manifest: BookManifest): string[] {
  return [
    ...Object.values(manifest.fieldErrors).flat(),
    ...manifest.errors,
    ...manifest.chapters.flatMap((chapter) =>
      chapterProblems(chapter).map((problem) => `${chapter.folder}: ${problem}`),
    ),
  ];
}

/** A book with no problem, as the commit creates it. */
export interface ReadyBook {
  code: string | null;
  fields: BookFields;
  cover: { name: string; file: string };
  sample: { name: string; file: string; duration_ms: number | null };
  chapters: Array<{
    title: string;
    chapter_no: number;
    rows: Array<{ phrase: string; dictionary: string; file: string; translations: Record<string, string> }>;
  }>;
}

/**
 * What the commit of a book without problems needs, checked: the fields of the form's types, the cover
 * and the sample, a number for every chapter and a staged clip for every row. A DamagedImport otherwise.
 */
export function readyBook(manifest: BookManifest): ReadyBook {
  const field = <F extends BookField>(name: F): BookFields[F] =>
    BOOK_FIELD_CHECKS[name](manifest.book[name], `book.${name}`);
  return {
    code: manifest.code,
    fields: {
      title: field('title'),
      author: field('author'),
      narrated_by: field('narrated_by'),
      hours: field('hours'),
      minutes: field('minutes'),
      description: field('description'),
      difficulty: field('difficulty'),
      sample_text: field('sample_text'),
      language: field('language'),
      cefr: field('cefr'),
    },
    cover: manifest.cover ?? refuse('cover', 'is missing from a book without problems'),
    sample: manifest.sample ?? refuse('sample', 'is missing from a book without problems'),
    chapters: manifest.chapters.map((chapter, c) => ({
      title: chapter.title,
      chapter_no: chapter.chapter_no ?? refuse(`chapters[${c}].chapter_no`, 'is missing'),
      rows: chapter.rows.map((row, r) => ({
        phrase: row.phrase,
        dictionary: row.dictionary,
        translations: row.translations ?? {},
        file: row.file ?? refuse(`chapters[${c}].rows[${r}].file`, 'is missing'),
      })),
    })),
  };
}
