import type { ChapterSummaryResponse } from './chapter-responses';
import { sql } from '../database/sql';
import { isForeignKeyViolation, isUniqueViolation } from '../database/db-errors';
import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { ValidationFailed } from '../common/api-error';
import { MediaService } from '../media/media.service';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import { Book } from '../books/book.entity';
import { Chapter } from './chapter.entity';
import { toChapterResponse, type ChapterDto } from './chapters.dto';

const NUMBER_TAKEN = 'This book already has a chapter with that number.';

@Injectable()
export class ChaptersService {
  constructor(
    @InjectRepository(Chapter) private readonly chapters: Repository<Chapter>,
    @InjectRepository(Book) private readonly books: Repository<Book>,
    private readonly db: DataSource,
    private readonly media: MediaService,
    private readonly events: CatalogueEvents,
  ) {}

  /** A book's chapters in order, with their phrase counts and audio time, in one query. */
  async listForBook(bookId: number) {
    const book = await this.books.findOneBy({ id: bookId });
    if (!book) throw new NotFoundException('Book not found.');
    const rows = (await sql(
      this.db,
      `SELECT c.id, c.book_id, c.title, c.chapter_no, COUNT(p.id) AS phrase_count,
              COALESCE(SUM(p.audio_ms), 0) AS duration_ms
         FROM chapters c LEFT JOIN phrases p ON p.chapter_id = c.id
        WHERE c.book_id = ? GROUP BY c.id ORDER BY c.chapter_no`,
      [bookId],
    )) as ChapterSummaryResponse[];
    return { data: { id: book.id, book_code: book.bookCode, title: book.title, chapters: rows } };
  }

  async get(id: number) {
    const chapter = await this.find(id);
    const book = await this.books.findOneBy({ id: chapter.bookId });
    if (!book) throw new NotFoundException('Chapter not found.');
    return { data: { ...toChapterResponse(chapter), book_code: book.bookCode, book_title: book.title } };
  }

  async create(dto: ChapterDto) {
    const book = await this.bookFor(dto.book_id);
    const chapter = await this.write(() =>
      this.chapters.save(
        this.chapters.create({ bookId: book.id, title: dto.title, chapterNo: dto.chapter_no }),
      ),
    );
    await this.events.changed(book.bookCode);
    return { message: 'The chapter has been created.', data: toChapterResponse(chapter) };
  }

  async update(id: number, dto: ChapterDto) {
    await this.find(id);
    const book = await this.bookFor(dto.book_id);
    // An update, never a save: a chapter deleted meanwhile must stay deleted.
    const { affected } = await this.write(() =>
      this.chapters.update({ id }, { bookId: book.id, title: dto.title, chapterNo: dto.chapter_no }),
    );
    if (affected !== 1) throw new NotFoundException('Chapter not found.');
    await this.events.changed(book.bookCode);
    return { message: 'The chapter has been updated.', data: toChapterResponse(await this.find(id)) };
  }

  /** Deletes the chapter and its phrases (the foreign key cascades), then their audio files. */
  async remove(id: number) {
    const chapter = await this.find(id);
    const lines = (await sql(this.db, `SELECT audio_path AS path FROM phrases WHERE chapter_id = ?`, [
      id,
    ])) as Array<{
      path: string;
    }>;
    await this.chapters.delete({ id });
    await this.media.remove(lines.map((line) => line.path));
    const book = await this.books.findOneBy({ id: chapter.bookId });
    if (book) await this.events.changed(book.bookCode);
    return { message: 'The chapter has been deleted.' };
  }

  async find(id: number): Promise<Chapter> {
    const chapter = await this.chapters.findOneBy({ id });
    if (!chapter) throw new NotFoundException('Chapter not found.');
    return chapter;
  }

  private async bookFor(bookId: number): Promise<Book> {
    const book = await this.books.findOneBy({ id: bookId });
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
