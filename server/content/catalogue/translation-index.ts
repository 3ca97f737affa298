import { Injectable } from '@nestjs/common';
import { CatalogueEvents } from './catalogue-events';
import { RefreshingIndex } from './refreshing-index';
import { PhraseTranslationsRepository } from './repository/phrase-translations.repository';

/** What the page cache needs to know of translations, without a query (http/query-rules.ts). */
export interface ChapterLanguages {
  /**
   * The languages a book's chapter has translations in, sorted (`[]`: none, or no such chapter); null while
   * the index cannot tell.
   */
  languagesOf(bookCode: string, chapterNo: string): string[] | null;
}

/** Languages by book code, then by chapter number. */
type ByBook = Map<string, Map<string, string[]>>;

/**
 * Which languages each chapter has translations in, so that the chapter API's cache key is the asked
 * languages intersected with the chapter's (docs/architecture.md, "Public pages: rendered once, served like static files"): random tags then
 * cannot multiply entries. Read whole at boot, after a failure and when a change names no book (another
 * instance's reconnect, catalogue-broadcast.ts); a change naming books reads those books again only, so
 * that an admin's edit, which waits for it, costs a query on one book, not on every translation (when it
 * reads, and its retries: refreshing-index.ts). It listens before the page cache is cleared (its
 * constructor subscribes before create-app.ts does).
 *
 * It fails closed: until a full read has worked, and from a failed read until a full read started after
 * it works, it cannot tell, and answers asking for translations are rendered but not kept. Keys never
 * decide what an answer holds (the chapter is rendered from its key alone), so a stale index can only
 * send a request to a key holding fewer languages than the chapter now has, never mix languages.
 */
@Injectable()
export class TranslationIndex extends RefreshingIndex implements ChapterLanguages {
  private byBook: ByBook = new Map();
  /** The full read the index holds (0: none yet). */
  private fullAt = 0;
  /** The books read on their own since that full read, each with its read's number. */
  private bookAt = new Map<string, number>();
  /** The last read that failed: only a full read started after it makes the index current again. */
  private failedAt = 0;

  constructor(
    private readonly translations: PhraseTranslationsRepository,
    events: CatalogueEvents,
  ) {
    super(
      events,
      'which languages the chapters have; answers with translations are not cached until a retry works',
    );
  }

  languagesOf(bookCode: string, chapterNo: string): string[] | null {
    if (!this.current) return null;
    return this.byBook.get(bookCode)?.get(chapterNo) ?? [];
  }

  /**
   * Reads the named books' languages again, or every book's when none is named or the index cannot tell
   * (it may have missed any change then); rejects when the read fails, after marking itself unsure.
   */
  async refresh(bookCodes: string[] = []): Promise<void> {
    const full = bookCodes.length === 0 || !this.current;
    const run = this.begin();
    let read: ByBook;
    try {
      read = await this.translations.languagesByBook(full ? undefined : bookCodes);
    } catch (error) {
      this.failedRead(run, error);
      throw error;
    }
    if (full) this.tookAll(run, read);
    else this.tookBooks(run, bookCodes, read);
  }

  /** A full read: every book, except those a later read of their own has answered meanwhile. */
  private tookAll(run: number, read: ByBook): void {
    if (run < this.fullAt) return;
    const next: ByBook = new Map();
    for (const book of new Set([...read.keys(), ...this.byBook.keys()])) {
      const chapters = (this.bookAt.get(book) ?? 0) > run ? this.byBook.get(book) : read.get(book);
      if (chapters) next.set(book, chapters);
    }
    for (const [book, at] of this.bookAt) if (at <= run) this.bookAt.delete(book);
    this.byBook = next;
    this.fullAt = run;
    if (run > this.failedAt) this.worked();
  }

  /** Some books read again: each replaced unless a read started later has answered it already. */
  private tookBooks(run: number, bookCodes: string[], read: ByBook): void {
    for (const book of new Set(bookCodes)) {
      if (Math.max(this.bookAt.get(book) ?? 0, this.fullAt) > run) continue;
      const chapters = read.get(book);
      if (chapters) this.byBook.set(book, chapters);
      else this.byBook.delete(book);
      this.bookAt.set(book, run);
    }
  }

  /** A change may have been missed: unsure until a full read started after this one works. */
  private failedRead(run: number, error: unknown): void {
    // A full read started later has worked already: it saw whatever this one was to see.
    if (run < this.fullAt) return;
    this.failedAt = Math.max(this.failedAt, run);
    this.failed(error);
  }
}
