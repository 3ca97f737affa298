import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import { PhraseTranslationsRepository } from '../catalogue/repository/phrase-translations.repository';

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

/**
 * Which languages each chapter has translations in, so that the chapter API's cache key is the asked
 * languages intersected with the chapter's (docs/architecture.md, "The page cache"): random tags then
 * cannot multiply entries. Refreshed at boot and on every catalogue change, here or on another instance
 * (catalogue-broadcast.ts), like the media index (media-index.ts), and it listens before the page cache
 * is cleared (its constructor subscribes before create-app.ts does).
 *
 * It fails closed: until the first refresh has worked, and from a failed refresh until one works again, it
 * cannot tell, and answers asking for translations are rendered but not kept. Keys never decide what an
 * answer holds (the chapter is rendered from its key alone), so a stale index can only send a request to
 * a key holding fewer languages than the chapter now has, never mix languages.
 */
@Injectable()
export class TranslationIndex implements ChapterLanguages, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TranslationIndex.name);
  private byChapter = new Map<string, string[]>();
  private current = false;
  private started = 0;
  private finished = 0;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly translations: PhraseTranslationsRepository,
    events: CatalogueEvents,
  ) {
    events.subscribe(() => this.follow());
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
    return this.byChapter.get(`${bookCode}/${chapterNo}`) ?? [];
  }

  /** Refreshes, and on failure logs and keeps retrying on its own: never throws (a catalogue listener). */
  async follow(): Promise<void> {
    await this.refresh().catch(() => undefined);
  }

  /** Reads every chapter's languages again; rejects when the read fails (after marking itself unsure). */
  async refresh(): Promise<void> {
    // With a connection pool two refreshes can finish out of order: the later one started decides.
    const run = ++this.started;
    try {
      const byChapter = await this.translations.languagesByChapter();
      if (run < this.finished) return;
      this.finished = run;
      this.byChapter = byChapter;
      this.current = true;
      this.retryMs = FIRST_RETRY_MS;
      if (this.retry) clearTimeout(this.retry);
      this.retry = null;
    } catch (error) {
      if (run >= this.finished) {
        this.finished = run;
        this.current = false;
        this.scheduleRetry(error);
      }
      throw error;
    }
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
