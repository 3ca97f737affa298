import {
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Readable } from 'node:stream';
import { DataSource, type Repository } from 'typeorm';
import type { Book } from '../../../content/catalogue/entities/book.entity';
import { CatalogueEvents } from '../../../content/catalogue/catalogue-events';
import { BooksRepository } from '../../../content/catalogue/repository/books.repository';
import { ChaptersRepository } from '../../../content/catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../../../content/catalogue/repository/phrases.repository';
import { FfmpegError, ffmpegAvailable } from '../../imports/ffmpeg';
import { MediaService } from '../../../platform/media/media.service';
import { DERIVED_STORE, MEDIA_STORE } from '../../../platform/media/store/create-stores';
import type { ByteRange, MediaStore } from '../../../platform/media/store/media-store';
import { AudiobookBuild, type AudiobookEdition } from '../audiobook-build.entity';
import { audiobookContents, clipCount, estimateSeconds, type AudiobookContents } from './audiobook-contents';
import { AudiobookBuilder, type BuildTimings } from './audiobook-builder';
import { AudiobookLeases } from './audiobook-leases';

export { estimateSeconds };

/**
 * `version` (64 hex digits) names the file's contents: the download route sends it as a strong ETag and
 * honours If-Range with it, so a resumed download never splices two versions.
 */
export type AudiobookAnswer =
  | { ready: true; key: string; bytes: number; filename: string; version: string }
  | { ready: false; retryAfterSeconds: number; message: string };

export const AUDIOBOOK_FFMPEG_MISSING =
  'Audiobook files are made with ffmpeg, which this server lacks. Install it with: sudo apt-get install -y ffmpeg';
export const NO_AUDIO = 'This book has no audio to make an audiobook of yet.';

/** Books whose contents (and version) are kept in memory between requests. */
const CACHED_BOOKS = 64;

/**
 * The M4B of a book (docs/formats.md, "Audiobook M4B"): served only when it holds the book's current
 * version; otherwise a build is started (or joined, on this instance or another) and the caller is told
 * when to come back. After an edit, books that have an M4B are rebuilt, debounced.
 */
@Injectable()
export class Audiobooks implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Audiobooks.name);
  private readonly leases: AudiobookLeases;
  private readonly builder: AudiobookBuilder;
  /** Quiet time after the last edit of a book before its M4Bs are rebuilt (tests shorten it). */
  rebuildDelayMs = 30_000;
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private stopped = false;
  /**
   * Each edition's contents as last read, by book code: a request (each HEAD, each Range, each poll) then
   * costs no read of every phrase. Dropped on every catalogue change of the book (here or elsewhere);
   * `epoch` keeps a read that raced a change from being kept.
   */
  private readonly cached = new Map<string, Map<AudiobookEdition, AudiobookContents>>();
  private epoch = 0;

  constructor(
    db: DataSource,
    @InjectRepository(AudiobookBuild) rows: Repository<AudiobookBuild>,
    private readonly books: BooksRepository,
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
    events: CatalogueEvents,
    @Inject(MEDIA_STORE) media: MediaStore,
    @Inject(DERIVED_STORE) private readonly derived: MediaStore,
    temp: MediaService,
  ) {
    this.leases = new AudiobookLeases(db, rows);
    this.builder = new AudiobookBuilder(
      this.leases,
      media,
      derived,
      () => temp.tempPath(),
      (bookId, edition) => this.current(bookId, edition),
    );
    events.subscribe((bookCodes) => this.changed(bookCodes));
  }

  /** The builder's timings (tests shorten them). */
  get timings(): BuildTimings {
    return this.builder.timings;
  }

  /** Builds this instance has run (one per claim it won). */
  get buildsRun(): number {
    return this.builder.buildsRun;
  }

  /** Files left by a crash or by a build that lost its lease, once nothing points to them. */
  onApplicationBootstrap(): void {
    void this.builder.sweep().catch((error: unknown) => this.logger.warn(`Sweep failed: ${String(error)}`));
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    await this.builder.stop();
  }

  /**
   * The kept M4B when it is of the book's current version; else a build is started (or joined).
   * Throws FfmpegError('missing') without ffmpeg, NotFoundException for an edition without clips.
   */
  async get(book: Book, edition: AudiobookEdition): Promise<AudiobookAnswer> {
    // The download route answers it with a 503 (downloads.service.ts), as it does for the EPUB.
    if (!(await ffmpegAvailable())) throw new FfmpegError('missing', AUDIOBOOK_FFMPEG_MISSING);
    const contents = await this.contentsOf(book, edition);
    if (clipCount(contents) === 0) throw new NotFoundException(NO_AUDIO);
    const row = await this.leases.find(book.id, edition);
    if (row?.fileKey && row.version === contents.version) {
      const stored = await this.derived.head(row.fileKey);
      if (stored)
        return {
          ready: true,
          key: row.fileKey,
          bytes: stored.size,
          filename: `${book.bookCode}${edition === 'sample' ? '-sample' : ''}.m4b`,
          version: row.version,
        };
    }
    const estimate = estimateSeconds(contents);
    // Only the version that failed waits: the book once fixed is built at once.
    const failed = row?.state === 'failed' && row.failedVersion === contents.version;
    const pause = failed ? (row.leaseUntilMs ?? 0) - Date.now() : 0;
    if (pause > 0)
      return {
        ready: false,
        retryAfterSeconds: Math.ceil(pause / 1000) + estimate,
        message: `The last attempt to make this audiobook failed; it is tried again in ${Math.ceil(pause / 1000)} s.`,
      };
    this.builder.start(contents);
    return {
      ready: false,
      retryAfterSeconds: estimate,
      message: `The audiobook is being made; it should be ready in about ${estimate} s.`,
    };
  }

  /** The kept file's bytes (from the derived store), or some of them. */
  read(key: string, range?: ByteRange): Promise<Readable> {
    return this.derived.read(key, range);
  }

  /** The edition's contents as they are now, or null when the book is gone. */
  private async current(bookId: number, edition: AudiobookEdition): Promise<AudiobookContents | null> {
    const book = await this.books.byId(bookId);
    return book && this.contentsOf(book, edition);
  }

  /** The edition's contents, from memory unless the book changed since they were read. */
  private async contentsOf(book: Book, edition: AudiobookEdition): Promise<AudiobookContents> {
    const known = this.cached.get(book.bookCode)?.get(edition);
    if (known) return known;
    const epoch = this.epoch;
    const contents = await audiobookContents(book, edition, this.chapters, this.phrases);
    if (epoch === this.epoch) {
      const editions = this.cached.get(book.bookCode) ?? new Map<AudiobookEdition, AudiobookContents>();
      editions.set(edition, contents);
      // Oldest first out: a Map keeps insertion order.
      this.cached.delete(book.bookCode);
      this.cached.set(book.bookCode, editions);
      if (this.cached.size > CACHED_BOOKS) this.cached.delete(this.cached.keys().next().value!);
    }
    return contents;
  }

  /** A catalogue change (here or on another instance): rebuild once the book has been quiet a while. */
  private changed(bookCodes: string[]): void {
    this.epoch += 1;
    if (bookCodes.length) for (const code of bookCodes) this.cached.delete(code);
    else this.cached.clear();
    if (this.stopped) return;
    // No codes: anything may have changed (a missed notice); every kept M4B is checked.
    const key = bookCodes.length ? bookCodes.join('\n') : '*';
    clearTimeout(this.pending.get(key));
    const timer = setTimeout(() => {
      this.pending.delete(key);
      void this.rebuild(bookCodes).catch((error: unknown) =>
        this.logger.warn(`Could not rebuild audiobooks after a change: ${String(error)}`),
      );
    }, this.rebuildDelayMs);
    timer.unref();
    this.pending.set(key, timer);
  }

  /** Starts a build of every kept M4B of these books (of every book without codes) that is out of date. */
  private async rebuild(bookCodes: string[]): Promise<void> {
    let ids: number[] | undefined;
    if (bookCodes.length) {
      const found = await Promise.all(bookCodes.map((code) => this.books.byCode(code)));
      ids = found.flatMap((book) => (book ? [book.id] : []));
      // A deleted book took its rows with it (a cascade): its files go now rather than at the next boot.
      if (ids.length < bookCodes.length) await this.builder.sweep();
    }
    for (const row of await this.leases.ofBooks(ids)) {
      if (this.stopped) return;
      const contents = await this.current(row.bookId, row.edition);
      if (!contents || clipCount(contents) === 0) continue;
      if (row.fileKey && row.version === contents.version) continue;
      this.builder.start(contents);
    }
  }
}
