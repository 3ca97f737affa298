import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { BooksRepository } from '../catalogue/repository/books.repository';
import { joinCatalogue } from '../catalogue/repository/catalogue-joins';
import { PhrasesRepository } from '../catalogue/repository/phrases.repository';
import { Clock } from '../common/clock';
import { isForeignKeyViolation } from '../database/db-errors';
import type { User } from '../users/user.entity';
import { compareDictation } from './dictation-compare';
import { DictationAttempt } from './dictation-attempt.entity';
import {
  DICTATION_MAX,
  type ChapterQuery,
  type DictationChapterAnswer,
  type DictationDto,
  type DictationResultAnswer,
} from './practice.dto';
import { PHRASE_NOT_FOUND, ReadablePhrase } from '../words/readable-phrase';

/** Segmenting words needs a language; a book without one is split by the default rules. */
const NO_LANGUAGE = 'und';

/**
 * Members' dictations (docs/practice.md, "Dictation"): each attempt scored here, by the same comparison the
 * reader runs for visitors, and kept, so that the score is the server's and a client cannot claim one.
 */
@Injectable()
export class DictationService {
  constructor(
    @InjectRepository(DictationAttempt) private readonly attempts: Repository<DictationAttempt>,
    private readonly readable: ReadablePhrase,
    private readonly phrases: PhrasesRepository,
    private readonly books: BooksRepository,
    private readonly clock: Clock,
  ) {}

  async attempt(user: User, dto: DictationDto): Promise<DictationResultAnswer> {
    const place = await this.readable.of(user, dto.phrase_id);
    const [phrase, book] = await Promise.all([this.phrases.byId(place.id), this.books.byId(place.book_id)]);
    // Deleted since the access check: as gone as a phrase that never was.
    if (!phrase) throw new NotFoundException(PHRASE_NOT_FOUND);
    const strict = dto.strict ?? false;
    const result = compareDictation(phrase.phrase, dto.text, strict, book?.language ?? NO_LANGUAGE);
    try {
      await this.attempts.insert({
        userId: user.id,
        phraseId: place.id,
        typed: storedTyped(dto.text, phrase.phrase),
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

/**
 * What is kept of an answer (docs/practice.md, "Dictation"): up to 4 characters per character of the phrase
 * and 100 more, never above DICTATION_MAX, cut between code points. Enough to show any honest attempt again;
 * a pasted wall of text is not stored whole. The score is computed on the whole answer first.
 */
export function storedTyped(typed: string, phrase: string): string {
  const bound = Math.min(DICTATION_MAX, 4 * Array.from(phrase).length + 100);
  if (typed.length <= bound) return typed;
  return Array.from(typed).slice(0, bound).join('');
}
