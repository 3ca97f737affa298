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
import type { Book } from '../../books/book.entity';
import { CatalogueEvents } from '../../catalogue/catalogue-events';
import { BooksRepository } from '../../catalogue/repository/books.repository';
import { ChaptersRepository } from '../../catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../../catalogue/repository/phrases.repository';
import { FfmpegError, ffmpegAvailable } from '../../imports/ffmpeg';
import { MediaService } from '../../media/media.service';
import { DERIVED_STORE, MEDIA_STORE } from '../../media/store/create-stores';
import type { ByteRange, MediaStore } from '../../media/store/media-store';
import { AudiobookBuild, type AudiobookEdition } from '../audiobook-build.entity';
import { audiobookContents, clipCount, roughLengthMs, type AudiobookContents } from './audiobook-contents';
import { AudiobookBuilder } from './audiobook-builder';
import { AudiobookLeases } from './audiobook-leases';

export type AudiobookAnswer =
  | { ready: true; key: string; bytes: number; filename: string }
  | { ready: false; retryAfterSeconds: number; message: string };

export const AUDIOBOOK_FFMPEG_MISSING =
  'Audiobook files are made with ffmpeg, which this server lacks. Install it with: sudo apt-get install -y ffmpeg';
export const NO_AUDIO = 'This book has no audio to make an audiobook of yet.';

/** ffmpeg encodes AAC at about 135× real time on the reference machine; each clip's decoder costs more. */
const ENCODE_SPEED = 135;
const SECONDS_PER_CLIP = 0.05;
const BASE_SECONDS = 2;

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
    const contents = await audiobookContents(book, edition, this.chapters, this.phrases);
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
        };
    }
    const estimate = estimateSeconds(contents);
    const pause = row?.state === 'failed' ? (row.leaseUntilMs ?? 0) - Date.now() : 0;
    if (pause > 0)
      return {
        ready: false,
        retryAfterSeconds: Math.ceil(pause / 1000) + estimate,
        message: `The last attempt to make this audiobook failed; it is tried again in ${Math.ceil(pause / 1000)} s.`,
      };
    await this.builder.start(contents);
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
    return book && audiobookContents(book, edition, this.chapters, this.phrases);
  }

  /** A catalogue change (here or on another instance): rebuild once the book has been quiet a while. */
  private changed(bookCodes: string[]): void {
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
      await this.builder.start(contents);
    }
  }
}

/** How long a build of `contents` should take, in whole seconds (the Retry-After). */
export function estimateSeconds(contents: AudiobookContents): number {
  return Math.ceil(
    BASE_SECONDS + roughLengthMs(contents) / 1000 / ENCODE_SPEED + clipCount(contents) * SECONDS_PER_CLIP,
  );
}
