import { isForeignKeyViolation, isUniqueViolation } from '../../platform/database/db-errors';
import { Injectable, NotFoundException } from '@nestjs/common';
import { ValidationFailed } from '../../platform/common/api-error';
import { MediaService } from '../../platform/media/media.service';
import { CatalogueEvents } from '../../content/catalogue/catalogue-events';
import type { Book } from '../../content/catalogue/entities/book.entity';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { ChaptersRepository } from '../../content/catalogue/repository/chapters.repository';
import type { Chapter } from '../../content/catalogue/entities/chapter.entity';
import { toChapterResponse, type ChapterDto } from './chapters.dto';

const NUMBER_TAKEN = 'This book already has a chapter with that number.';

@Injectable()
export class ChaptersService {
  constructor(
    private readonly chapters: ChaptersRepository,
    private readonly books: BooksRepository,
    private readonly media: MediaService,
    private readonly events: CatalogueEvents,
  ) {}

  /** A book's chapters in order, with their phrase counts and audio time, in one query. */
  async listForBook(bookId: number) {
    const book = await this.books.byId(bookId);
    if (!book) throw new NotFoundException('Book not found.');
    const rows = await this.chapters.summariesOfBook(bookId);
    return { data: { id: book.id, book_code: book.bookCode, title: book.title, chapters: rows } };
  }

  async get(id: number) {
    const chapter = await this.chapters.withBook(id);
    if (!chapter) throw new NotFoundException('Chapter not found.');
    const { book } = chapter;
    return { data: { ...toChapterResponse(chapter), book_code: book.bookCode, book_title: book.title } };
  }

  async create(dto: ChapterDto) {
    const book = await this.bookFor(dto.book_id);
    const chapter = await this.write(() =>
      this.chapters.create({ bookId: book.id, title: dto.title, chapterNo: dto.chapter_no }),
    );
    await this.events.changed(book.bookCode);
    return { message: 'The chapter has been created.', data: toChapterResponse(chapter) };
  }

  async update(id: number, dto: ChapterDto) {
    const before = await this.find(id);
    const book = await this.bookFor(dto.book_id);
    const affected = await this.write(() =>
      this.chapters.update(id, { bookId: book.id, title: dto.title, chapterNo: dto.chapter_no }),
    );
    if (affected !== 1) throw new NotFoundException('Chapter not found.');
    // A chapter moved to another book changed the book it left too (its pages, its words).
    const left = before.bookId !== book.id ? await this.books.byId(before.bookId) : null;
    await this.events.changed(...[book.bookCode, ...(left ? [left.bookCode] : [])]);
    return { message: 'The chapter has been updated.', data: toChapterResponse(await this.find(id)) };
  }

  /** Deletes the chapter and its phrases (the foreign key cascades), then their audio files. */
  async remove(id: number) {
    const chapter = await this.find(id);
    const lines = await this.chapters.remove(id);
    await this.media.remove(lines);
    const book = await this.books.byId(chapter.bookId);
    if (book) await this.events.changed(book.bookCode);
    return { message: 'The chapter has been deleted.' };
  }

  async find(id: number): Promise<Chapter> {
    const chapter = await this.chapters.byId(id);
    if (!chapter) throw new NotFoundException('Chapter not found.');
    return chapter;
  }

  private async bookFor(bookId: number): Promise<Book> {
    const book = await this.books.byId(bookId);
    if (!book) throw ValidationFailed.field('book_id', 'The selected book does not exist.');
    return book;
  }

  /** Turns the database's own refusals into the answers a client can act on. */
  private async write<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw ValidationFailed.field('chapter_no', NUMBER_TAKEN);
      }
      if (isForeignKeyViolation(error)) {
        throw ValidationFailed.field('book_id', 'The selected book does not exist.');
      }
      throw error;
    }
  }
}
