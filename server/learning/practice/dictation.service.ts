import { HttpStatus, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { joinCatalogue } from '../../content/catalogue/repository/catalogue-joins';
import { PhrasesRepository } from '../../content/catalogue/repository/phrases.repository';
import { Clock } from '../../platform/common/clock';
import { RateWindows, type SlidingWindow } from '../../platform/common/rate-windows';
import { AnswerWithHeaders } from '../../platform/common/api-error';
import { isForeignKeyViolation } from '../../platform/database/db-errors';
import type { User } from '../../accounts/users/user.entity';
import { compareDictation, keptAnswer } from './dictation-compare';
import { DictationAttempt } from './dictation-attempt.entity';
import {
  DICTATION_COST_LIMIT,
  type ChapterQuery,
  type DictationChapterAnswer,
  type DictationDto,
  type DictationResultAnswer,
} from './practice.dto';
import { Access, PHRASE_NOT_FOUND } from '../../content/access/access.service';

/** Segmenting words needs a language; a book without one is split by the default rules. */
const NO_LANGUAGE = 'und';

/**
 * Members' dictations (docs/practice.md, "Dictation"): each attempt scored here, by the same comparison the
 * reader runs for visitors, and kept, so that the score is the server's and a client cannot claim one.
 */
@Injectable()
export class DictationService {
  /** Characters compared per member (DICTATION_COST_LIMIT), beside the count of dictations. */
  private readonly cost: SlidingWindow;

  constructor(
    @InjectRepository(DictationAttempt) private readonly attempts: Repository<DictationAttempt>,
    private readonly access: Access,
    private readonly phrases: PhrasesRepository,
    private readonly books: BooksRepository,
    private readonly clock: Clock,
    windows: RateWindows,
  ) {
    const { bucket, limit, windowMs } = DICTATION_COST_LIMIT;
    this.cost = windows.window(`member:${bucket}`, limit, windowMs);
  }

  async attempt(user: User, dto: DictationDto): Promise<DictationResultAnswer> {
    const place = await this.access.require(user, { phrase: dto.phrase_id }, 'use');
    const [phrase, book] = await Promise.all([this.phrases.byId(place.id), this.books.byId(place.book_id)]);
    // Deleted since the access check: as gone as a phrase that never was.
    if (!phrase) throw new NotFoundException(PHRASE_NOT_FOUND);
    // What is compared is what is kept (docs/practice.md, "Dictation"), and it is paid for first.
    const typed = keptAnswer(dto.text, phrase.phrase);
    const spent = Math.ceil((phrase.phrase.length + typed.length) / DICTATION_COST_LIMIT.unit);
    const wait = await this.cost.hit(`user:${user.id}`, spent);
    if (wait > 0)
      throw new AnswerWithHeaders(HttpStatus.TOO_MANY_REQUESTS, DICTATION_COST_LIMIT.message, {
        'Retry-After': String(Math.max(1, Math.ceil(wait / 1000))),
      });
    const strict = dto.strict ?? false;
    const result = compareDictation(phrase.phrase, typed, strict, book?.language ?? NO_LANGUAGE);
    try {
      await this.attempts.insert({
        userId: user.id,
        phraseId: place.id,
        typed,
        score: result.score,
        strict,
        createdAt: this.clock.now(),
      });
    } catch (error) {
      // The phrase deleted between the comparison and the insert: its foreign key refuses the row.
      if (isForeignKeyViolation(error)) throw new NotFoundException(PHRASE_NOT_FOUND);
      throw error;
    }
    return { data: { phrase_id: place.id, score: result.score, strict, words: result.words } };
  }

  /**
   * The member's latest score and attempt count for each phrase of one chapter they tried, in reading
   * order, and the mean of those latest scores: one query. The inner one keeps the chapter's attempts only,
   * then groups them by phrase (the latest attempt is the highest id); the outer one reads its score.
   */
  async chapter(user: User, query: ChapterQuery): Promise<DictationChapterAnswer> {
    const rows = await this.attempts
      .createQueryBuilder('a')
      .innerJoin(
        (sub) =>
          joinCatalogue(sub.from(DictationAttempt, 'l'), {
            phrase: 'l.phraseId',
            chapter: 'p.chapterId',
            book: 'c.bookId',
          })
            .select('p.id', 'phrase_id')
            .addSelect('p.position', 'position')
            .addSelect('MAX(l.id)', 'latest_id')
            .addSelect('COUNT(*)', 'attempts')
            .where('l.userId = :userId')
            .andWhere('b.bookCode = :bookCode AND c.chapterNo = :chapterNo')
            .groupBy('p.id')
            .addGroupBy('p.position'),
        'latest',
        'latest.latest_id = a.id',
      )
      .select('latest.phrase_id', 'phrase_id')
      .addSelect('a.score', 'score')
      .addSelect('latest.attempts', 'attempts')
      .setParameters({ userId: user.id, bookCode: query.book_code, chapterNo: query.chapter_no })
      .orderBy('latest.position', 'ASC')
      .addOrderBy('latest.phrase_id', 'ASC')
      .getRawMany<{ phrase_id: number | string; score: number | string; attempts: number | string }>();
    const phrases = rows.map((row) => ({
      phrase_id: Number(row.phrase_id),
      score: Number(row.score),
      attempts: Number(row.attempts),
    }));
    const total = phrases.length
      ? Math.round(phrases.reduce((sum, phrase) => sum + phrase.score, 0) / phrases.length)
      : null;
    return { data: { phrases, total } };
  }
}
