import { Injectable, NotFoundException } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { Book } from './entities/book.entity';
import { BookResponse, toBookResponse } from './book-response';
import { coverSrcset } from '../../platform/media/media-urls';
import { CEFR_LEVELS, type CefrLevel } from './book-levels';
import { NO_LEVEL, PAGE_SIZE, type BrowseFilter } from './browse-query';
import { canonicalTag, languageKey, languageName, NO_LANGUAGE } from './languages';
import { BooksRepository } from './repository/books.repository';
import type { FacetCounts } from './repository/book-browse';

/** guest/list-book and the seed's pages show at most this many books, the newest. */
export const LIST_LIMIT = 100;

/** A language's page shows at most this many books in all, over its levels. */
export const SHELF_CARDS = 120;

/** A book as the public pages show it: the API fields plus what responsive images need. */
export class PublicBook extends BookResponse {
  @ApiProperty({ description: "The cover's srcset, for responsive images." }) image_srcset: string;
  @ApiProperty({ type: 'integer', nullable: true, description: "The sample clip's length, when known." })
  sample_audio_ms: number | null;
}

export class PublicBookListAnswer {
  @ApiProperty({ type: [PublicBook] }) data: PublicBook[];
}

export class PublicBookAnswer {
  @ApiProperty({ type: PublicBook }) data: PublicBook;
}

export class BookFacets {
  @ApiProperty({ description: 'Books per language key (a tag in lower case, or "none").' })
  language: Record<string, number>;
  @ApiProperty({ description: 'Books per CEFR level (or "none").' }) cefr: Record<string, number>;
  @ApiProperty({ description: 'Books per difficulty.' }) difficulty: Record<string, number>;
}

export class BookBrowseMeta {
  @ApiProperty({ description: 'Books matching every filter.' }) total: number;
  @ApiProperty() page: number;
  @ApiProperty() per_page: number;
  @ApiProperty({
    type: BookFacets,
    description: "Per filter, each value's count among the books matching the other filters.",
  })
  facets: FacetCounts;
}

export class BookBrowseAnswer {
  @ApiProperty({ type: [PublicBook] }) data: PublicBook[];
  @ApiProperty({ type: BookBrowseMeta }) meta: BookBrowseMeta;
}

/** A language of the catalogue: its URL key ("pt-pt", "none"), tag, English name and books. */
export interface CatalogueLanguage {
  key: string;
  tag: string | null;
  name: string;
  books: number;
  /** When a book of it last changed. */
  lastChange: Date;
}

/** One CEFR level's books on a language's page: its count and the newest few. */
export interface LevelShelf {
  /** A CEFR level, or "none" for the books without one. */
  level: CefrLevel | typeof NO_LEVEL;
  total: number;
  books: PublicBook[];
}

/** A language's page (/learn/{key}): its books by level, from A1 to C2, then those without a level. */
export interface LanguageShelves {
  key: string;
  tag: string;
  name: string;
  total: number;
  shelves: LevelShelf[];
}

export const toPublicBook = (book: Book): PublicBook => ({
  ...toBookResponse(book),
  image_srcset: coverSrcset(book.coverPath),
  sample_audio_ms: book.sampleAudioMs,
});

/** Read-only view of the catalogue for visitors: the guest API and the public pages both use it. */
@Injectable()
export class CatalogueService {
  constructor(private readonly books: BooksRepository) {}

  /** The newest books, at most `limit` (100 at most): no public list shows every book. */
  async listBooks(limit = LIST_LIMIT): Promise<PublicBook[]> {
    const books = await this.books.newest(Math.min(limit, LIST_LIMIT));
    return books.map(toPublicBook);
  }

  /** A page of the catalogue with its facet counts (docs/catalogue.md). */
  async browse(filter: BrowseFilter): Promise<BookBrowseAnswer> {
    const { books, total, facets } = await this.books.browse(filter);
    return {
      data: books.map(toPublicBook),
      meta: { total, page: filter.page, per_page: filter.perPage, facets },
    };
  }

  /** Each language with books, by URL key ("pt-pt", "none"), its English name and its count. */
  async languages(): Promise<CatalogueLanguage[]> {
    const rows = await this.books.languages();
    return rows.map(({ language, books, lastChange }) => ({
      key: languageKey(language),
      tag: language,
      name: languageName(language),
      books,
      lastChange,
    }));
  }

  /**
   * A language's books by level, newest first: at most `perLevel` of each (24 at most), fewer when many
   * levels share the page, so that it never holds more than `cards` (a page stays under 100 KB whatever
   * the catalogue's size). Null when the key is not a language or the language has no books. One count,
   * then a query per level present: at most eight queries.
   */
  async languageShelves(
    key: string,
    { perLevel = PAGE_SIZE, cards = SHELF_CARDS }: { perLevel?: number; cards?: number } = {},
  ): Promise<LanguageShelves | null> {
    const tag = key === NO_LANGUAGE ? null : canonicalTag(key);
    if (!tag) return null;
    const counts = new Map((await this.books.levelCounts(tag)).map((row) => [row.cefr, row.books]));
    const levels = [...CEFR_LEVELS, null].filter((level) => counts.has(level));
    if (!levels.length) return null;
    const limit = Math.max(1, Math.min(perLevel, PAGE_SIZE, Math.floor(cards / levels.length)));
    const shelves = await Promise.all(
      levels.map(async (level): Promise<LevelShelf> => ({
        level: level ?? NO_LEVEL,
        total: counts.get(level)!,
        books: (await this.books.newestAt(tag, level, limit)).map(toPublicBook),
      })),
    );
    return {
      key: languageKey(tag),
      tag,
      name: languageName(tag),
      total: shelves.reduce((sum, shelf) => sum + shelf.total, 0),
      shelves,
    };
  }

  async findBook(bookCode: string): Promise<PublicBook | null> {
    const book = await this.books.byCode(bookCode);
    return book ? toPublicBook(book) : null;
  }

  async getBook(bookCode: string): Promise<PublicBook> {
    const book = await this.findBook(bookCode);
    if (!book) throw new NotFoundException('Book not found.');
    return book;
  }
}
