import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { BooksRepository } from '../catalogue/repository/books.repository';
import { joinCatalogue } from '../catalogue/repository/catalogue-joins';
import { PhrasesRepository } from '../catalogue/repository/phrases.repository';
import { Clock } from '../common/clock';
import type { User } from '../users/user.entity';
import { compareDictation } from './dictation-compare';
import { DictationAttempt } from './dictation-attempt.entity';
import type {
  ChapterQuery,
  DictationChapterAnswer,
  DictationDto,
  DictationResultAnswer,
} from './practice.dto';
import { ReadablePhrase } from './readable-phrase';

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
    const strict = dto.strict ?? false;
    // The phrase was there a moment ago; deleted since, it is compared as empty rather than failing.
    const result = compareDictation(phrase?.phrase ?? '', dto.text, strict, book?.language ?? NO_LANGUAGE);
    await this.attempts.insert({
      userId: user.id,
      phraseId: place.id,
      typed: dto.text,
      score: result.score,
      strict,
      createdAt: this.clock.now(),
    });
    return { data: { phrase_id: place.id, score: result.score, strict, words: result.words } };
  }

  /**
   * The member's latest score and attempt count for each phrase of one chapter they tried, in reading
   * order, and the mean of those latest scores: one query (the latest attempt is the highest id).
   */
  async chapter(user: User, query: ChapterQuery): Promise<DictationChapterAnswer> {
    const rows = await joinCatalogue(this.attempts.createQueryBuilder('a'), {
      phrase: 'a.phraseId',
      chapter: 'p.chapterId',
      book: 'c.bookId',
    })
      .innerJoin(
        (sub) =>
          sub
            .select('l.phraseId', 'phrase_id')
            .addSelect('MAX(l.id)', 'latest_id')
            .addSelect('COUNT(*)', 'attempts')
            .from(DictationAttempt, 'l')
            .where('l.userId = :userId')
            .groupBy('l.phraseId'),
        'latest',
        'latest.latest_id = a.id',
      )
      .select('a.phraseId', 'phrase_id')
      .addSelect('a.score', 'score')
      .addSelect('latest.attempts', 'attempts')
      .where('a.userId = :userId', { userId: user.id })
      .andWhere('b.bookCode = :bookCode AND c.chapterNo = :chapterNo', {
        bookCode: query.book_code,
        chapterNo: query.chapter_no,
      })
      .orderBy('p.position', 'ASC')
      .addOrderBy('p.id', 'ASC')
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
