import {
  emptyBookManifest,
  markSharedNumbers,
  takeBookJson,
  takeChapterJson,
} from '../publishing/imports/book-import-reader';
import { bookProblems, readyBook, type BookChapter, type ReadyBook } from '../publishing/imports/manifests';
import { rowTextProblem } from '../publishing/imports/text-formats';
import type { DemoBook } from './demo-catalogue';

/**
 * A demo book (catalogue.json) read as the book import reads a book's folder: its fields by book.json's
 * rules and its chapters by chapter.json's (the admin forms' own, book-import-reader.ts), its rows by the
 * character rule, then made ready as the import's commit makes a staged book (manifests.ts). Its files are
 * named by their paths in the demo folder. A problem stops the seed, naming the book: the demo catalogue
 * is ours, so it is a bug to fix, not a book to skip.
 */
export async function demoReadyBook(demo: DemoBook): Promise<ReadyBook> {
  const manifest = emptyBookManifest();
  await takeBookJson({ ...demo }, manifest);
  manifest.cover = { name: demo.cover, file: demo.cover };
  manifest.sample = { name: demo.sample_audio, file: demo.sample_audio, duration_ms: null };
  for (const chapter of demo.chapters) {
    const read: BookChapter = {
      folder: `chapter ${chapter.chapter_no}`,
      chapter_no: null,
      title: '',
      errors: [],
      rows: chapter.phrases.map((phrase, i) => {
        const row = {
          n: i + 1,
          phrase: phrase.phrase,
          dictionary: phrase.dictionary,
          translations: phrase.translations ?? {},
          clip: phrase.audio,
          file: phrase.audio,
          duration_ms: null,
        };
        return { ...row, error: rowTextProblem(row) };
      }),
    };
    await takeChapterJson({ title: chapter.title, number: chapter.chapter_no }, read);
    manifest.chapters.push(read);
  }
  markSharedNumbers(manifest.chapters);
  const problems = bookProblems(manifest);
  if (problems.length)
    throw new Error(`The demo book "${demo.title}" cannot be seeded: ${problems.join(' ')}`);
  return readyBook(manifest);
}
