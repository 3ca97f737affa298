import type { EntityManager } from 'typeorm';
import { slugify, uniqueCode } from '../books/book-code';
import type { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { ValidationFailed } from '../../platform/common/api-error';
import {
  MediaRejectedError,
  type AudioKind,
  type MediaService,
  type StoredAudio,
} from '../../platform/media/media.service';
import type { ReadyBook } from './manifests';

/*
 * Turning a ready book (manifests.ts) into media and rows: the one way a whole book is created, whether it
 * comes from an administrator's zip or EPUB (book-import.service.ts) or from the demo catalogue
 * (seed/demo-seed.service.ts).
 */

/** A book's files once stored, by the book's order: what its rows point to. */
export interface StoredBookFiles {
  cover: string;
  sample: StoredAudio;
  /** By chapter, then by row. */
  clips: StoredAudio[][];
}

/** Every stored path of a book's files, for discarding them when its rows are not written after all. */
export const storedPaths = (files: StoredBookFiles): string[] => [
  files.cover,
  files.sample.path,
  ...files.clips.flat().map((clip) => clip.path),
];

/**
 * Stores the cover, the sample and every clip through the same checks as any upload, one after the
 * other. `copyTo` copies one of the book's files (as the book names it) to a media temp path, which the
 * store then takes. A file the checks refuse is a 422 named by its field, as the book import names them.
 * If anything fails, what was stored is discarded again before the error is thrown. `knownLengthUs`
 * gives the decoded length of a file measured before (the demo's, server/seed/demo/lengths.json); the
 * others are measured after the change (MeasureAhead).
 */
export async function storeBookFiles(
  media: MediaService,
  book: ReadyBook,
  copyTo: (file: string, temp: string) => Promise<void>,
  knownLengthUs: (file: string) => number | undefined = () => undefined,
): Promise<StoredBookFiles> {
  const stored: string[] = [];
  const copyIn = async (file: string) => {
    const temp = media.tempPath();
    await copyTo(file, temp);
    return temp;
  };
  const audio = async (file: string, kind: AudioKind, field: string) => {
    // Hundreds of clips at once: unless known, their decoded lengths are measured after the change
    // (MeasureAhead).
    const known = knownLengthUs(file);
    const measure = known === undefined ? 'later' : { decodedUs: known };
    const saved = await refusedAs(field, async () => media.storeAudio(await copyIn(file), kind, measure));
    stored.push(saved.path);
    return saved;
  };
  try {
    const cover = await refusedAs('book_image', async () => media.storeCover(await copyIn(book.cover.file)));
    stored.push(cover);
    const sample = await audio(book.sample.file, 'samples', 'sample_audio');
    const clips: StoredAudio[][] = [];
    for (const chapter of book.chapters) {
      const chapterClips: StoredAudio[] = [];
      for (const row of chapter.rows) chapterClips.push(await audio(row.file, 'lines', 'zip'));
      clips.push(chapterClips);
    }
    return { cover, sample, clips };
  } catch (error) {
    await media.discard(stored);
    throw error;
  }
}

async function refusedAs<T>(field: string, store: () => Promise<T>): Promise<T> {
  try {
    return await store();
  } catch (error) {
    if (error instanceof MediaRejectedError) throw ValidationFailed.field(field, error.message);
    throw error;
  }
}

/**
 * Creates the book with its chapters and phrases in `tx`, pointing at its stored files, under the book's
 * own code when it is free here, else a new slug of its title, as a new book gets; answers the code.
 */
export async function createWholeBook(
  books: BooksRepository,
  tx: EntityManager,
  book: ReadyBook,
  files: StoredBookFiles,
): Promise<string> {
  const { fields } = book;
  const bookCode = await freeCode(books, tx, book);
  await books.createWhole(
    {
      bookCode,
      title: fields.title,
      author: fields.author,
      narratedBy: fields.narrated_by,
      description: fields.description,
      difficulty: fields.difficulty,
      hours: fields.hours,
      minutes: fields.minutes,
      sampleText: fields.sample_text,
      language: fields.language,
      cefr: fields.cefr,
      coverPath: files.cover,
      sampleAudioPath: files.sample.path,
      sampleAudioMs: files.sample.durationMs,
    },
    book.chapters.map((chapter, c) => ({
      title: chapter.title,
      chapterNo: chapter.chapter_no,
      phrases: chapter.rows.map((row, i) => ({
        phrase: row.phrase,
        dictionary: row.dictionary,
        translations: row.translations,
        audioPath: files.clips[c][i].path,
        audioMs: files.clips[c][i].durationMs,
      })),
    })),
    tx,
  );
  return bookCode;
}

async function freeCode(books: BooksRepository, tx: EntityManager, book: ReadyBook): Promise<string> {
  if (book.code && !(await books.hasCode(book.code, tx))) return book.code;
  const { title } = book.fields;
  return uniqueCode(title, new Set(await books.codes(slugify(title), tx)));
}
