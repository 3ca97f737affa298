import { createHash } from 'node:crypto';
import type { Book } from '../../../content/catalogue/entities/book.entity';
import { firstChapterNo, isFreeChapter } from '../../../content/catalogue/free-chapters';
import type { ChaptersRepository } from '../../../content/catalogue/repository/chapters.repository';
import type { PhrasesRepository } from '../../../content/catalogue/repository/phrases.repository';
import type { AudiobookEdition } from '../audiobook-build.entity';

/**
 * Changes whenever the encoder's output would (codec, bit rate, metadata written): every kept M4B then
 * counts as another version and is made again.
 */
const ENCODING_REVISION = 'm4b-2'; // 2: every track tagged with the book's language
/** A clip whose length is not known yet counts as this long in the estimate of a build's time. */
const UNKNOWN_CLIP_MS = 3_000;
/** ffmpeg encodes AAC at about 135× real time on the reference machine; each clip's decoder costs more. */
const ENCODE_SPEED = 135;
const SECONDS_PER_CLIP = 0.05;
const BASE_SECONDS = 2;

export interface AudiobookClip {
  id: number;
  position: number;
  audioPath: string;
  audioMs: number | null;
}

export interface AudiobookChapter {
  id: number;
  chapterNo: number;
  title: string;
  clips: AudiobookClip[];
}

/** Everything an M4B holds, and its version: a hash of all of it, in order. */
export interface AudiobookContents {
  bookId: number;
  bookCode: string;
  edition: AudiobookEdition;
  title: string;
  author: string;
  narrator: string;
  /** The book's BCP 47 tag, or null: its tracks' language (track-language.ts). */
  language: string | null;
  coverPath: string;
  chapters: AudiobookChapter[];
  version: string;
}

/**
 * Reads what the edition of `book` holds, in two queries whatever its size (chapters, then their
 * phrases), through the catalogue's repositories. `sample` is the free chapter only (catalogue's rule).
 */
export async function audiobookContents(
  book: Book,
  edition: AudiobookEdition,
  chapters: ChaptersRepository,
  phrases: PhrasesRepository,
): Promise<AudiobookContents> {
  const all = await chapters.ofBook(book.id);
  const free = firstChapterNo(all.map((chapter) => chapter.chapterNo));
  const chosen = edition === 'full' ? all : all.filter((chapter) => isFreeChapter(chapter.chapterNo, free));
  const byChapter = new Map<number, AudiobookClip[]>(chosen.map((chapter) => [chapter.id, []]));
  // Each chapter's phrases come in reading order (position, then id).
  for (const phrase of await phrases.ofChapters([...byChapter.keys()]))
    byChapter.get(phrase.chapterId)?.push({
      id: phrase.id,
      position: phrase.position,
      audioPath: phrase.audioPath,
      audioMs: phrase.audioMs,
    });
  const contents: Omit<AudiobookContents, 'version'> = {
    bookId: book.id,
    bookCode: book.bookCode,
    edition,
    title: book.title,
    author: book.author,
    narrator: book.narratedBy,
    language: book.language,
    coverPath: book.coverPath,
    chapters: chosen.map((chapter) => ({
      id: chapter.id,
      chapterNo: chapter.chapterNo,
      title: chapter.title,
      clips: byChapter.get(chapter.id) ?? [],
    })),
  };
  return { ...contents, version: versionOf(contents) };
}

/** A SHA-256 (64 hex digits, the column's width) of everything the file holds, in order. */
function versionOf(contents: Omit<AudiobookContents, 'version'>): string {
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify([
      ENCODING_REVISION,
      contents.edition,
      contents.title,
      contents.author,
      contents.narrator,
      contents.language,
      contents.coverPath,
    ]),
  );
  for (const chapter of contents.chapters) {
    hash.update(JSON.stringify(['chapter', chapter.id, chapter.chapterNo, chapter.title]));
    for (const clip of chapter.clips) hash.update(JSON.stringify([clip.id, clip.position, clip.audioPath]));
  }
  return hash.digest('hex');
}

export const clipCount = (contents: AudiobookContents): number =>
  contents.chapters.reduce((sum, chapter) => sum + chapter.clips.length, 0);

/** The edition's length as the catalogue knows it (container figures: good enough for an estimate). */
export const roughLengthMs = (contents: AudiobookContents): number =>
  contents.chapters.reduce(
    (sum, chapter) =>
      sum + chapter.clips.reduce((total, clip) => total + (clip.audioMs ?? UNKNOWN_CLIP_MS), 0),
    0,
  );

/** How long a build of `contents` should take, in whole seconds (the Retry-After). */
export function estimateSeconds(contents: AudiobookContents): number {
  return Math.ceil(
    BASE_SECONDS + roughLengthMs(contents) / 1000 / ENCODE_SPEED + clipCount(contents) * SECONDS_PER_CLIP,
  );
}

/** Where the M4B of a version is kept in the derived store (docs/formats.md). */
export const audiobookKey = (contents: AudiobookContents): string =>
  `audiobooks/${contents.bookCode}-${contents.edition}-${contents.version}.m4b`;

/** The version a kept file's key names, or null for a key that is not an M4B's. */
export function versionOfKey(key: string): string | null {
  return /^audiobooks\/.+-(?:full|sample)-([0-9a-f]{64})\.m4b$/.exec(key)?.[1] ?? null;
}
