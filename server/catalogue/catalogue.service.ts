import { Injectable, NotFoundException } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { Book } from '../books/book.entity';
import { BookResponse, toBookResponse } from '../books/books.dto';
import { coverSrcset } from '../media/media-urls';
import { BooksRepository } from './repository/books.repository';

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

const toPublicBook = (book: Book): PublicBook => ({
  ...toBookResponse(book),
  image_srcset: coverSrcset(book.coverPath),
  sample_audio_ms: book.sampleAudioMs,
});

/** Read-only view of the catalogue for visitors: the guest API and the public pages both use it. */
@Injectable()
export class CatalogueService {
  constructor(private readonly books: BooksRepository) {}

  async listBooks(): Promise<PublicBook[]> {
    const books = await this.books.list();
    return books.map(toPublicBook);
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
