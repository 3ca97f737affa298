import { Injectable, NotFoundException } from '@nestjs/common';
import { dateFromDb } from '../../platform/database/db-dates';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThanOrEqual, type Repository } from 'typeorm';
import type { Book } from '../../content/catalogue/entities/book.entity';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { joinCatalogue, phraseCountOf } from '../../content/catalogue/repository/catalogue-joins';
import { PhrasesRepository } from '../../content/catalogue/repository/phrases.repository';
import { ValidationFailed } from '../../platform/common/api-error';
import { Clock } from '../../platform/common/clock';
import { sentLaterTime } from '../../platform/common/sent-later';
import { coverUrl } from '../../platform/media/media-urls';
import type { User } from '../../accounts/users/user.entity';
import type {
  ProgressAnswer,
  ProgressDto,
  ProgressListAnswer,
  ProgressResponse,
  ProgressSaveAnswer,
} from './progress.dto';
import { ReadingProgress } from './reading-progress.entity';
import { Access } from '../../content/access/access.service';

interface ProgressRow {
  book_code: string;
  book_title: string;
  cover_path: string;
  chapter_no: number | string;
  chapter_title: string;
  position: number | string | null;
  phrase_count: number | string;
  speed: number | string;
  updated_at: Date | string;
}

const KEPT = 'A later place in this book was saved on another device: it is kept.';

/** Where members are in their books, saved as they listen and restored on any device. */
@Injectable()
export class ProgressService {
  constructor(
    @InjectRepository(ReadingProgress) private readonly progress: Repository<ReadingProgress>,
    private readonly books: BooksRepository,
    private readonly phrases: PhrasesRepository,
    private readonly access: Access,
    private readonly clock: Clock,
  ) {}

  /**
   * Saves the member's place in a book. Without `at`, the place is now's and always replaces the one held.
   * With `at` (a place saved offline and sent later), it replaces only a place saved at or before `at`: a
   * place saved later on another device is kept and answered, with `kept`, so the client moves there.
   */
  async save(user: User, dto: ProgressDto): Promise<ProgressSaveAnswer> {
    const now = this.clock.now();
    const at = dto.at == null ? null : sentLaterTime(new Date(dto.at), now, 'The time at that place');
    const { book, chapters, index } = await this.access.require(
      user,
      { chapter: { bookCode: dto.book_code, chapterNo: String(dto.chapter_no) } },
      'use',
    );
    const chapter = chapters[index];
    const phrase = await this.phrases.atPosition(chapter.id, dto.position);
    if (!phrase) {
      const count = await this.phrases.countOfChapter(chapter.id);
      throw ValidationFailed.field(
        'position',
        `The position must be from 1 to ${count}: the chapter has ${count} phrases.`,
      );
    }
    const place = { chapterId: chapter.id, phraseId: phrase.id };
    if (at) {
      await this.saveIfLater(user, book, { ...place, speed: dto.speed }, at);
      const data = await this.getOne(user, book);
      // Whatever the order of racing saves, the row ends with the latest place: later than `at`, it was kept.
      return Date.parse(data.updated_at) > at.getTime() ? { data, kept: true, message: KEPT } : { data };
    }
    const existing = await this.progress.findOneBy({ userId: user.id, bookId: book.id });
    // One row per member and book: the unique index makes the insert-or-update safe under a pool too.
    await this.progress.upsert(
      {
        userId: user.id,
        bookId: book.id,
        ...place,
        speed: dto.speed ?? existing?.speed ?? 1,
        updatedAt: now,
      },
      ['userId', 'bookId'],
    );
    return { data: await this.getOne(user, book) };
  }

  /**
   * Writes a place as of `at` unless the row holds a later one. The condition is in the UPDATE, and the
   * unique index decides a first save, so two devices' saves racing on a pool leave the later place: an
   * UPDATE that matches nothing is followed by an insert (ignored when a row appeared meanwhile) and the
   * same UPDATE again, which then finds the row either way.
   */
  private async saveIfLater(
    user: User,
    book: Book,
    place: { chapterId: number; phraseId: number; speed?: number },
    at: Date,
  ): Promise<void> {
    const { speed, ...rest } = place;
    const values = { ...rest, ...(speed !== undefined && { speed }), updatedAt: at };
    const update = () =>
      this.progress.update({ userId: user.id, bookId: book.id, updatedAt: LessThanOrEqual(at) }, values);
    if ((await update()).affected) return;
    await this.progress
      .createQueryBuilder()
      .insert()
      .values({ userId: user.id, bookId: book.id, speed: 1, ...values })
      .orIgnore()
      .execute();
    await update();
  }

  async list(user: User): Promise<ProgressListAnswer> {
    const rows = await this.query(user).getRawMany<ProgressRow>();
    return { data: rows.map(toProgressResponse) };
  }

  async get(user: User, bookCode: string): Promise<ProgressAnswer> {
    const book = await this.books.byCode(bookCode);
    if (!book) throw new NotFoundException('Book not found.');
    return { data: await this.getOne(user, book) };
  }

  private async getOne(user: User, book: Book): Promise<ProgressResponse> {
    const row = await this.query(user)
      .andWhere('rp.bookId = :bookId', { bookId: book.id })
      .getRawOne<ProgressRow>();
    if (!row) throw new NotFoundException('You have not started this book yet.');
    return toProgressResponse(row);
  }

  /** Everything a progress answer shows, for all of a member's books, in one query. */
  private query(user: User) {
    return joinCatalogue(this.progress.createQueryBuilder('rp'), {
      phrase: 'rp.phraseId',
      phraseMayBeMissing: true,
      chapter: 'rp.chapterId',
      book: 'rp.bookId',
    })
      .select('b.bookCode', 'book_code')
      .addSelect('b.title', 'book_title')
      .addSelect('b.coverPath', 'cover_path')
      .addSelect('c.chapterNo', 'chapter_no')
      .addSelect('c.title', 'chapter_title')
      .addSelect('p.position', 'position')
      .addSelect(phraseCountOf('rp.chapterId'), 'phrase_count')
      .addSelect('rp.speed', 'speed')
      .addSelect('rp.updatedAt', 'updated_at')
      .where('rp.userId = :userId', { userId: user.id })
      .orderBy('rp.updatedAt', 'DESC');
  }
}

function toProgressResponse(row: ProgressRow): ProgressResponse {
  return {
    book_code: row.book_code,
    book_title: row.book_title,
    image_path: coverUrl(row.cover_path),
    chapter_no: Number(row.chapter_no),
    chapter_title: row.chapter_title,
    // The saved phrase was deleted: the chapter's start.
    position: row.position === null ? 1 : Number(row.position),
    phrase_count: Number(row.phrase_count),
    speed: Number(row.speed),
    updated_at: dateFromDb(row.updated_at).toISOString(),
  };
}
