import { Injectable, NotFoundException } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { Book } from '../books/book.entity';
import { BookResponse, toBookResponse } from '../books/books.dto';
import { coverSrcset } from '../media/media-urls';
import type { BrowseFilter } from './browse-query';
import { languageKey, languageName } from './languages';
import { BooksRepository } from './repository/books.repository';
import type { FacetCounts } from './repository/book-browse';

/** guest/list-book and the seed's pages show at most this many books, the newest. */
export const LIST_LIMIT = 100;

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

const toPublicBook = (book: Book): PublicBook => ({
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
