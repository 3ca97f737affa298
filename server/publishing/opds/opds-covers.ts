import { Inject, Injectable, NotFoundException, StreamableFile } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { InFlight } from '../../platform/common/in-flight';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { coverFile } from '../../platform/media/media-urls';
import { DERIVED_STORE, MEDIA_STORE } from '../../platform/media/store/create-stores';
import { ObjectNotFoundError, type MediaStore } from '../../platform/media/store/media-store';

/** The cover sizes the feeds link (OPDS image and thumbnail). */
export const OPDS_COVER_WIDTHS = [640, 320] as const;
export type OpdsCoverWidth = (typeof OPDS_COVER_WIDTHS)[number];

/**
 * `covers/ab12` → `opds-covers/ab12-640.jpg`. Cover keys are random and never reused (a new cover gets a
 * new key), so a copy made once never goes stale.
 */
export const opdsCoverKey = (coverPath: string, width: OpdsCoverWidth) =>
  `opds-covers/${basename(coverPath)}-${width}.jpg`;

const NO_COVER = 'This book has no cover.';

/**
 * JPEG covers for the feeds: OPDS 1.2 §5.2.2 allows only GIF, JPEG and PNG, and covers are stored as WebP.
 * Each size is converted by sharp on first request and kept in the derived store (docs/formats.md, "OPDS 1.2").
 */
@Injectable()
export class OpdsCovers {
  /** Conversions under way, by derived key: a second request waits for the first. */
  private readonly running = new InFlight<void>();

  constructor(
    @Inject(MEDIA_STORE) private readonly media: MediaStore,
    @Inject(DERIVED_STORE) private readonly derived: MediaStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly books: BooksRepository,
  ) {}

  /** The book's cover as a JPEG `width` pixels wide; 404 for an unknown book or size, or no cover file. */
  async jpeg(bookCode: string, width: string): Promise<StreamableFile> {
    const size = OPDS_COVER_WIDTHS.find((w) => String(w) === width);
    if (!size) throw new NotFoundException('Covers come 640 or 320 pixels wide.');
    const book = await this.books.byCode(bookCode);
    if (!book) throw new NotFoundException('There is no such book.');
    const key = opdsCoverKey(book.coverPath, size);
    let info = await this.derived.head(key);
    if (!info) {
      await this.convertOnce(book.coverPath, size, key);
      info = await this.derived.head(key);
      if (!info) throw new NotFoundException(NO_COVER);
    }
    return new StreamableFile(await this.derived.read(key), { type: 'image/jpeg', length: info.size });
  }

  private convertOnce(coverPath: string, width: OpdsCoverWidth, key: string): Promise<void> {
    return this.running.run(key, () => this.convert(coverPath, width, key));
  }

  /** Streams the WebP of the same width through sharp to a temp file, then stores it. */
  private async convert(coverPath: string, width: OpdsCoverWidth, key: string): Promise<void> {
    const dir = join(this.config.storageDir, 'tmp');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `opds-cover-${randomBytes(8).toString('hex')}.jpg`);
    const toJpeg = sharp().jpeg({ quality: 85 });
    let undecodable = false;
    toJpeg.once('error', () => (undecodable = true));
    try {
      const source = await this.media.read(coverFile(coverPath, width));
      await pipeline(source, toJpeg, createWriteStream(file, { mode: 0o600 }));
      await this.derived.put(key, file, 'image/jpeg');
    } catch (error) {
      // A missing or undecodable stored cover is the book's, not the server's: a 404, never a 500.
      if (error instanceof ObjectNotFoundError || undecodable) throw new NotFoundException(NO_COVER);
      throw error;
    } finally {
      await rm(file, { force: true });
    }
  }
}
