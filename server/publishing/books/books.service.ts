import { isUniqueViolation } from '../../platform/database/db-errors';
import { Injectable, NotFoundException } from '@nestjs/common';
import { ValidationFailed, type FieldErrors } from '../../platform/common/api-error';
import type { UploadedFile } from '../../platform/common/uploaded-file.validator';
import { MediaRejectedError, MediaService, type StoredAudio } from '../../platform/media/media.service';
import { CatalogueEvents } from '../../content/catalogue/catalogue-events';
import { BooksRepository, type NewBook } from '../../content/catalogue/repository/books.repository';
import type { Book } from '../../content/catalogue/entities/book.entity';
import { slugify, uniqueCode } from './book-code';
import type { MessageAnswer } from '../../platform/common/answers';
import { toBookResponse } from '../../content/catalogue/book-response';
import type { BookAnswer, CreateBookDto, UpdateBookDto } from './books.dto';
import { bookListFilter, isNarrowed, type BookListAnswer } from './book-list.dto';

interface StoredBookMedia {
  cover?: string;
  sample?: StoredAudio;
}

/** Administrators' book management; every file a book owns goes through MediaService. */
@Injectable()
export class BooksService {
  constructor(
    private readonly books: BooksRepository,
    private readonly media: MediaService,
    private readonly events: CatalogueEvents,
  ) {}

  /**
   * A page of the Book List, filtered and searched as the public catalogue is (docs/api.md). An empty
   * catalogue keeps the original 404; a filter or a search that finds nothing is an empty page.
   */
  async list(query: Record<string, unknown>): Promise<BookListAnswer> {
    const filter = bookListFilter(query);
    const { books, total, facets } = await this.books.browse(filter);
    if (total === 0 && !isNarrowed(filter)) throw new NotFoundException('No books found');
    return {
      data: books.map(toBookResponse),
      meta: { total, page: filter.page, per_page: filter.perPage, facets },
    };
  }

  async get(bookCode: string): Promise<BookAnswer> {
    return { data: toBookResponse(await this.find(bookCode)) };
  }

  async create(dto: CreateBookDto): Promise<BookAnswer> {
    const stored = await this.storeMedia(dto);
    try {
      const book = await this.insertWithUniqueCode(dto, stored);
      await this.events.changed(book.bookCode);
      return { message: 'The book has been created.', data: toBookResponse(book) };
    } catch (error) {
      await this.media.discard([stored.cover, stored.sample?.path]);
      throw error;
    }
  }

  /**
   * New files are stored before the row changes; the files they replace are deleted only after. The row is
   * re-read and updated in one transaction, so a delete or another edit meanwhile is neither undone nor
   * left pointing at a deleted file.
   */
  async update(bookCode: string, dto: UpdateBookDto): Promise<BookAnswer> {
    await this.find(bookCode);
    const stored = await this.storeMedia(dto);
    const changes: Partial<NewBook> = { ...this.fields(dto) };
    if (stored.cover) changes.coverPath = stored.cover;
    if (stored.sample)
      Object.assign(changes, {
        sampleAudioPath: stored.sample.path,
        sampleAudioMs: stored.sample.durationMs,
      });
    let replaced: Array<string | null> = [];
    try {
      const previous = await this.books.update(bookCode, changes);
      if (!previous) throw new NotFoundException('Book not found.');
      replaced = [stored.cover ? previous.coverPath : null, stored.sample ? previous.sampleAudioPath : null];
    } catch (error) {
      await this.media.discard([stored.cover, stored.sample?.path]);
      throw error;
    }
    await this.media.remove(replaced);
    await this.events.changed(bookCode);
    return { message: 'The book has been updated.', data: toBookResponse(await this.find(bookCode)) };
  }

  /** Deletes the book, its chapters and phrases (foreign keys cascade), then every file they owned. */
  async remove(bookCode: string): Promise<MessageAnswer> {
    const book = await this.find(bookCode);
    // The files as the delete saw them, not as read above: an edit may have replaced one meanwhile.
    await this.media.remove(await this.books.remove(book.id));
    await this.events.changed(book.bookCode);
    return { message: 'The book has been deleted.' };
  }

  async find(bookCode: string): Promise<Book> {
    const book = await this.books.byCode(bookCode);
    if (!book) throw new NotFoundException('Book not found.');
    return book;
  }

  private fields(dto: CreateBookDto | UpdateBookDto) {
    return {
      title: dto.title,
      author: dto.author,
      narratedBy: dto.narrated_by,
      description: dto.description,
      difficulty: dto.difficulty,
      hours: dto.hours,
      minutes: dto.minutes,
      sampleText: dto.sample_text,
      ...(dto.language !== undefined && { language: dto.language }),
      ...(dto.cefr !== undefined && { cefr: dto.cefr }),
    };
  }

  /** The slug is taken from the title once; two books saved at the same moment let the unique index decide. */
  private async insertWithUniqueCode(dto: CreateBookDto, stored: StoredBookMedia): Promise<Book> {
    for (let attempt = 0; ; attempt++) {
      const base = slugify(dto.title);
      const taken = await this.books.codes(base);
      const book = {
        ...this.fields(dto),
        bookCode: uniqueCode(dto.title, new Set(taken)),
        coverPath: stored.cover!,
        sampleAudioPath: stored.sample!.path,
        sampleAudioMs: stored.sample!.durationMs,
      };
      try {
        return await this.books.create(book);
      } catch (error) {
        // Another book took the code meanwhile (told by the driver's code, on either database): look again.
        // Each retry sees every code taken so far, so a burst of N same-titled books needs at most N tries.
        if (!isUniqueViolation(error) || attempt >= 9) throw error;
      }
    }
  }

  /** Checks and stores both files; if either is refused, neither is kept, and both problems are reported. */
  private async storeMedia(dto: {
    book_image?: UploadedFile;
    sample_audio?: UploadedFile;
  }): Promise<StoredBookMedia> {
    const errors: FieldErrors = {};
    const [cover, sample] = await Promise.all([
      dto.book_image
        ? this.media
            .storeCover(dto.book_image.path)
            .catch((error: unknown) => rejected(error, 'book_image', errors))
        : undefined,
      dto.sample_audio
        ? this.media
            .storeAudio(dto.sample_audio.path, 'samples')
            .catch((error: unknown) => rejected(error, 'sample_audio', errors))
        : undefined,
    ]);
    if (Object.keys(errors).length > 0) {
      await this.media.discard([cover, sample?.path]);
      throw new ValidationFailed(errors);
    }
    return { cover: cover ?? undefined, sample: sample ?? undefined };
  }
}

/** Records a refused upload under its field; anything else is a real failure. */
export function rejected(error: unknown, field: string, errors: FieldErrors): undefined {
  if (!(error instanceof MediaRejectedError)) throw error;
  errors[field] = [error.message];
  return undefined;
}
