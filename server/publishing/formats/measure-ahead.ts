import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CatalogueEvents } from '../../content/catalogue/catalogue-events';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { ChaptersRepository } from '../../content/catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../../content/catalogue/repository/phrases.repository';
import { FfmpegError } from '../imports/ffmpeg';
import { msOfUs } from '../../platform/media/audio-lengths';
import { ObjectNotFoundError } from '../../platform/media/store/media-store';
import { AudioMeasures, UndecodableAudioError } from './audio-measures';

/** Queue entry for "anything may have changed" (a change event without book codes). */
const EVERY_BOOK = '*';
/**
 * Clips per `AudioMeasures.lengths` call: one lookup query each, and at most this many ffmpeg runs (two at
 * once) between two looks at `stopped`, so a shutdown waits for a few short decodes at most.
 */
const CHUNK = 16;
/** Keys known not to decode: media keys are never reused, so one is not tried again at the next edit. */
const MAX_FAILED = 10_000;

/**
 * Measures the lengths of a book's clips a few seconds after its last change (docs/formats.md "Exact
 * lengths"), so that the first EPUB or subtitles of a chapter find them in `audio_measures` instead of
 * waiting for ffmpeg on every clip, and puts each decoded length on the rows whose length is another
 * (an import's clips, rows from before lengths were decoded). At boot it queues the books that have such
 * rows. Background work only: one book at a time, through the process-wide ffmpeg limiter, errors logged
 * and never thrown, no timer keeping the process alive.
 */
@Injectable()
export class MeasureAhead implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MeasureAhead.name);
  /** Quiet time after a book's last change before its clips are measured (tests shorten it). */
  delayMs = 5_000;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Book codes due, oldest first (a Set: a book queued twice is measured once). */
  private readonly due = new Set<string>();
  private readonly failed = new Set<string>();
  private running: Promise<void> | null = null;
  /** The boot's look for books with rows to measure, while it runs. */
  private looking: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly events: CatalogueEvents,
    private readonly books: BooksRepository,
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
    private readonly measures: AudioMeasures,
  ) {
    events.subscribe((bookCodes) => this.changed(bookCodes));
  }

  /** Resolves once nothing is due, waiting or being measured (tests wait for it). */
  async idle(): Promise<void> {
    while (this.running || this.timers.size || (this.due.size && !this.stopped)) {
      await (this.running ?? new Promise((done) => setTimeout(done, 50)));
    }
  }

  /**
   * The backfill: books whose rows hold a length measured another way (before lengths were decoded, or
   * an instance that stopped before measuring an import) are queued, without holding the boot up.
   */
  onApplicationBootstrap(): void {
    this.looking = this.books.codesWithUnmeasuredClips().then(
      (codes) => {
        if (codes.length) this.changed(codes);
      },
      (error: unknown) => {
        if (!this.stopped) this.logger.warn(`Could not look for clips to measure: ${String(error)}`);
      },
    );
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.due.clear();
    // The chunk under way ends (a few short decodes) before the database it writes to closes, and so
    // does the boot's look for rows to measure.
    await Promise.all([this.running, this.looking]);
  }

  /**
   * A change here or on another instance: the book is measured once it has been quiet `delayMs`. Without
   * codes (a missed notice, the demo seed) every book is queued, and measured one at a time: a book whose
   * clips are all known costs its lookups only.
   */
  private changed(bookCodes: string[]): void {
    if (this.stopped) return;
    for (const code of bookCodes.length ? bookCodes : [EVERY_BOOK]) {
      clearTimeout(this.timers.get(code));
      const timer = setTimeout(() => {
        this.timers.delete(code);
        if (this.stopped) return;
        this.due.add(code);
        this.start();
      }, this.delayMs);
      timer.unref();
      this.timers.set(code, timer);
    }
  }

  private start(): void {
    if (this.running || this.stopped) return;
    this.running = this.drain()
      .catch((error: unknown) => this.logger.warn(`Measuring clips ahead failed: ${String(error)}`))
      .finally(() => {
        this.running = null;
        if (this.due.size) this.start();
      });
  }

  private async drain(): Promise<void> {
    for (let code = first(this.due); code !== undefined && !this.stopped; code = first(this.due)) {
      this.due.delete(code);
      if (code === EVERY_BOOK) {
        for (const each of await this.books.codes()) this.due.add(each);
        continue;
      }
      try {
        await this.measureBook(code);
      } catch (error) {
        if (error instanceof FfmpegError && error.kind === 'missing') {
          // Nothing can be measured: downloads will answer 503 themselves. Said once, then no more work.
          this.logger.warn(`Clip lengths are not measured ahead: ${error.message}`);
          this.stopped = true;
          this.due.clear();
          return;
        }
        this.logger.warn(`Could not measure the clips of book ${code} ahead: ${String(error)}`);
      }
    }
  }

  /**
   * The book's clips in reading order (first chapter first: the likeliest first download), then its
   * sample; then their decoded lengths go on the rows that hold another, and a change is announced.
   */
  private async measureBook(code: string): Promise<void> {
    const book = await this.books.byCode(code);
    if (!book) return;
    const chapters = await this.chapters.ofBook(book.id);
    const order = new Map(chapters.map((chapter, i) => [chapter.id, i]));
    const phrases = await this.phrases.ofChapters([...order.keys()]);
    phrases.sort((a, b) => order.get(a.chapterId)! - order.get(b.chapterId)!);
    const keys = [...new Set([...phrases.map((phrase) => phrase.audioPath), book.sampleAudioPath])].filter(
      (key) => !this.failed.has(key),
    );
    const measured = new Map<string, number>();
    // What was measured goes on the rows even when a later chunk fails (an ffmpeg timeout, the store
    // down): the book is tried again at the next change or start, from where its rows are then.
    try {
      await this.measureKeys(code, keys, measured);
    } finally {
      await this.putMeasured(code, book.id, book.sampleAudioPath, phrases, measured);
    }
  }

  private async measureKeys(code: string, keys: string[], measured: Map<string, number>): Promise<void> {
    for (let i = 0; i < keys.length && !this.stopped; i += CHUNK) {
      const chunk = keys.slice(i, i + CHUNK);
      try {
        for (const [key, us] of await this.measures.lengths(chunk)) measured.set(key, msOfUs(us));
      } catch (error) {
        if (!isClipError(error)) throw error;
        // One bad clip rejects the whole call: measure the chunk's others one by one to find it.
        for (const key of chunk) {
          const us = this.stopped ? null : await this.measureOne(code, key);
          if (us !== null) measured.set(key, msOfUs(us));
        }
      }
    }
  }

  /**
   * Only the clips some row of this book holds another length for go to the database: the rows are in
   * hand, so a book whose lengths are all exact (every book, once measured) costs no lookup by clip key.
   */
  private async putMeasured(
    code: string,
    bookId: number,
    sample: string,
    phrases: ReadonlyArray<{ audioPath: string; audioMs: number | null }>,
    measured: ReadonlyMap<string, number>,
  ): Promise<void> {
    const differing = new Map<string, number>();
    for (const phrase of phrases) {
      const ms = measured.get(phrase.audioPath);
      if (ms !== undefined && phrase.audioMs !== ms) differing.set(phrase.audioPath, ms);
    }
    await this.putLengths(code, bookId, sample, measured.get(sample), differing);
  }

  /** Decoded lengths onto the rows that hold another; the caches (and other instances) hear of it. */
  private async putLengths(
    code: string,
    bookId: number,
    sample: string,
    sampleMs: number | undefined,
    ms: Map<string, number>,
  ) {
    const phrases = ms.size > 0 && (await this.phrases.setClipLengths(ms));
    const book = sampleMs !== undefined && (await this.books.setSampleLength(bookId, sample, sampleMs));
    if (phrases || book) await this.events.changed(code);
  }

  private async measureOne(code: string, key: string): Promise<number | null> {
    try {
      return (await this.measures.lengths([key])).get(key)!;
    } catch (error) {
      if (!isClipError(error)) throw error;
      if (this.failed.size >= MAX_FAILED) this.failed.clear();
      this.failed.add(key);
      // A download of its chapter will answer with the same message; the edit itself was saved.
      this.logger.warn(`A clip of book ${code} cannot be measured: ${error.message}`);
      return null;
    }
  }
}

/** The clip's own fault (not audio, or gone from the store): the book's other clips are still measured. */
function isClipError(error: unknown): error is Error {
  return error instanceof UndecodableAudioError || error instanceof ObjectNotFoundError;
}

function first<T>(set: Set<T>): T | undefined {
  return set.values().next().value;
}
