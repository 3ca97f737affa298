import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CatalogueEvents } from './catalogue-events';
import { PhraseTranslationsRepository } from './repository/phrase-translations.repository';

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;

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
 * that an admin's edit, which waits for it, costs a query on one book, not on every translation.
 * It listens before the page cache is cleared (its constructor subscribes before create-app.ts does).
 *
 * It fails closed: until a full read has worked, and from a failed read until a full read started after
 * it works, it cannot tell, and answers asking for translations are rendered but not kept. Keys never
 * decide what an answer holds (the chapter is rendered from its key alone), so a stale index can only
 * send a request to a key holding fewer languages than the chapter now has, never mix languages.
 */
@Injectable()
export class TranslationIndex implements ChapterLanguages, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TranslationIndex.name);
  private byBook: ByBook = new Map();
  private current = false;
  /** Reads are numbered as they start: with a connection pool they may end in any order. */
  private started = 0;
  /** The full read the index holds (0: none yet). */
  private fullAt = 0;
  /** The books read on their own since that full read, each with its read's number. */
  private bookAt = new Map<string, number>();
  /** The last read that failed: only a full read started after it makes the index current again. */
  private failedAt = 0;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly translations: PhraseTranslationsRepository,
    events: CatalogueEvents,
  ) {
    events.subscribe((bookCodes) => this.follow(bookCodes));
  }

  onApplicationBootstrap(): Promise<void> {
    return this.follow();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
  }

  languagesOf(bookCode: string, chapterNo: string): string[] | null {
    if (!this.current) return null;
    return this.byBook.get(bookCode)?.get(chapterNo) ?? [];
  }

  /** Refreshes, and on failure logs and keeps retrying on its own: never throws (a catalogue listener). */
  async follow(bookCodes: string[] = []): Promise<void> {
    await this.refresh(bookCodes).catch(() => undefined);
  }

  /**
   * Reads the named books' languages again, or every book's when none is named or the index cannot tell
   * (it may have missed any change then); rejects when the read fails, after marking itself unsure.
   */
  async refresh(bookCodes: string[] = []): Promise<void> {
    const full = bookCodes.length === 0 || !this.current;
    const run = ++this.started;
    let read: ByBook;
    try {
      read = await this.translations.languagesByBook(full ? undefined : bookCodes);
    } catch (error) {
      this.failed(run, error);
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
    if (run > this.failedAt) {
      this.current = true;
      this.retryMs = FIRST_RETRY_MS;
      if (this.retry) clearTimeout(this.retry);
      this.retry = null;
    }
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
  private failed(run: number, error: unknown): void {
    // A full read started later has worked already: it saw whatever this one was to see.
    if (run < this.fullAt) return;
    this.failedAt = Math.max(this.failedAt, run);
    this.current = false;
    this.scheduleRetry(error);
  }

  private scheduleRetry(error: unknown): void {
    if (this.stopped) return;
    this.logger.error(
      `Could not read which languages the chapters have; answers with translations are not cached until a retry works: ${String(error)}`,
    );
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.follow();
    }, this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}
