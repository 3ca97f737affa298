import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, IsNull, LessThanOrEqual, Or, type Repository } from 'typeorm';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { ValidationFailed } from '../../platform/common/api-error';
import { Clock } from '../../platform/common/clock';
import { CLOCK_SKEW_MS, olderThanWindow, SENT_LATER_MAX_AGE_DAYS } from '../../platform/common/sent-later';
import { dateFromDb } from '../../platform/database/db-dates';
import type { User } from '../../accounts/users/user.entity';
import { ReviewLog } from './review-log.entity';
import type {
  NextDue,
  ReviewAheadAnswer,
  ReviewAheadQuery,
  ReviewAnswerDto,
  ReviewCard,
  ReviewQueueAnswer,
  ReviewResultAnswer,
  ReviewUndoAnswer,
} from './review.dto';
import { AHEAD_DAYS, MAX_AHEAD, MAX_DUE, NEW_PER_DAY } from './review-limits';
import { SavedWord } from './saved-word.entity';
import { OwnParameters } from './own-parameters';
import { cardOf, formatInterval, type Scheduler } from './scheduler';
import { addDays, localDate, quarterOf, startOfDate } from '../../platform/common/time-zone';
import { WordsService, type WordRow } from './words.service';

const DAY_MS = 86_400_000;
const NEW = 0;
const ANSWERED = 'This card was just answered elsewhere. Reload to go on.';
const JUST_ANSWERED = 'This card was answered a moment ago. Reload to go on.';
/**
 * An answer without `version` to a card answered less than this ago is taken for a duplicate (a double
 * tap, a retry, the same request sent twice at once). No review shows one card twice within 2 s: even
 * Again brings it back a minute later, and undo puts the card's last review back to the one before.
 */
export const DUPLICATE_WINDOW_MS = 2000;

/**
 * The time of an answer sent later, checked against the server's clock and the card. Up to CLOCK_SKEW_MS
 * ahead is a client clock running fast, taken as now (so no card's last review is ever in the server's
 * future); further ahead, or older than the window, is refused. So is a time before the card existed or
 * before an answer already applied to it: FSRS schedules forward from the last review, and undo takes a
 * card's answers back latest first.
 */
function sentAt(reviewedAt: Date, now: Date, word: SavedWord): Date {
  const refuse = (message: string) => ValidationFailed.field('reviewed_at', message);
  if (reviewedAt.getTime() > now.getTime() + CLOCK_SKEW_MS)
    throw refuse('The review time must not be in the future.');
  if (olderThanWindow(reviewedAt, now))
    throw refuse(`The review time must be within the last ${SENT_LATER_MAX_AGE_DAYS} days.`);
  const at = reviewedAt > now ? now : reviewedAt;
  if (at < word.createdAt) throw refuse('The review time must not be before the word was saved.');
  if (word.lastReview && at < word.lastReview)
    throw refuse("The review time must not be before the card's last answer.");
  return at;
}

/** Reviews of saved words, scheduled with FSRS: what is due, and one answer at a time. */
@Injectable()
export class ReviewService {
  constructor(
    @InjectRepository(SavedWord) private readonly words: Repository<SavedWord>,
    private readonly wordsService: WordsService,
    private readonly books: BooksRepository,
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly parameters: OwnParameters,
  ) {}

  /**
   * The cards to review now: the due cards already learnt, oldest due first (at most MAX_DUE of them),
   * then new cards up to the day's allowance. Days are the member's days (UTC without a time zone).
   */
  async queue(user: User): Promise<ReviewQueueAnswer> {
    const now = this.clock.now();
    const startOfDay = startOfDate(localDate(now, user.timeZone), user.timeZone);
    const allowance = await this.newAllowance(user, startOfDay);
    const dueQuery = this.wordsService
      .query(user)
      .andWhere('w.state <> :new AND w.due <= :now', { new: NEW, now });
    const [due, dueCount] = await Promise.all([
      dueQuery.clone().orderBy('w.due', 'ASC').addOrderBy('w.id', 'ASC').limit(MAX_DUE).getRawMany<WordRow>(),
      dueQuery.clone().getCount(),
    ]);
    const fresh = allowance
      ? await this.wordsService
          .query(user)
          .andWhere('w.state = :new', { new: NEW })
          .orderBy('w.createdAt', 'ASC')
          .addOrderBy('w.id', 'ASC')
          .limit(allowance)
          .getRawMany<WordRow>()
      : [];
    return {
      data: {
        cards: await this.cards(user, [...due, ...fresh], now),
        due_count: dueCount,
        new_count: fresh.length,
        parameters: await this.parameters.stateOf(user.id),
        next_due_at: due.length || fresh.length ? null : await this.nextDue(user, now, startOfDay),
      },
    };
  }

  /**
   * What a device keeps to review one book offline for the next `days`: the member's cards of that book
   * that come due by then (learnt cards due by `until`, earliest first, then every new card, oldest saved
   * first; at most MAX_AHEAD, the first in that order), each as the queue gives it, with today's allowance
   * of new cards. New cards are all given, not just today's allowance: offline days to come have their own.
   */
  async ahead(user: User, query: ReviewAheadQuery): Promise<ReviewAheadAnswer> {
    const book = await this.books.byCode(query.book_code);
    if (!book) throw new NotFoundException('Book not found.');
    const now = this.clock.now();
    const until = new Date(now.getTime() + (query.days ?? AHEAD_DAYS) * DAY_MS);
    const ofBook = () => this.wordsService.query(user).andWhere('c.bookId = :bookId', { bookId: book.id });
    const learnt = await ofBook()
      .andWhere('w.state <> :new AND w.due <= :until', { new: NEW, until })
      .orderBy('w.due', 'ASC')
      .addOrderBy('w.id', 'ASC')
      .limit(MAX_AHEAD)
      .getRawMany<WordRow>();
    const fresh =
      learnt.length < MAX_AHEAD
        ? await ofBook()
            .andWhere('w.state = :new', { new: NEW })
            .orderBy('w.createdAt', 'ASC')
            .addOrderBy('w.id', 'ASC')
            .limit(MAX_AHEAD - learnt.length)
            .getRawMany<WordRow>()
        : [];
    const startOfDay = startOfDate(localDate(now, user.timeZone), user.timeZone);
    return {
      data: {
        cards: await this.cards(user, [...learnt, ...fresh], now),
        until: until.toISOString(),
        new_limit: await this.newAllowance(user, startOfDay),
      },
    };
  }

  /** New cards the member may still start on the day begun at `startOfDay`: NEW_PER_DAY less those since. */
  private async newAllowance(user: User, startOfDay: Date): Promise<number> {
    const newToday = await this.db
      .getRepository(ReviewLog)
      .createQueryBuilder('l')
      .where('l.userId = :userId AND l.state = :new AND l.reviewedAt >= :start', {
        userId: user.id,
        new: NEW,
        start: startOfDay,
      })
      .select('COUNT(DISTINCT l.wordId)', 'count')
      .getRawOne<{ count: number | string }>();
    return Math.max(0, NEW_PER_DAY - Number(newToday?.count ?? 0));
  }

  /**
   * With nothing to review now: when the next card comes, the earliest learnt card's due date, or the
   * member's next midnight when new cards wait for tomorrow's allowance. Null with no words at all.
   */
  private async nextDue(user: User, now: Date, startOfDay: Date): Promise<string | null> {
    const row = await this.words
      .createQueryBuilder('w')
      .select('MIN(w.due)', 'due')
      .where('w.userId = :userId AND w.state <> :new', { userId: user.id, new: NEW })
      .getRawOne<{ due: Date | string | null }>();
    const waitingNew = await this.words.existsBy({ userId: user.id, state: NEW });
    const candidates: number[] = [];
    if (row?.due) candidates.push(dateFromDb(row.due).getTime());
    if (waitingNew)
      candidates.push(startOfDate(addDays(localDate(startOfDay, user.timeZone), 1), user.timeZone).getTime());
    return candidates.length
      ? new Date(Math.max(now.getTime(), Math.min(...candidates))).toISOString()
      : null;
  }

  /**
   * Words as review cards: with each answer's next due date, and the version to send back. Two queries at
   * most, however many rows: the member's plan (when a clip is locked) and the cards' states.
   */
  private async cards(user: User, rows: WordRow[], now: Date): Promise<ReviewCard[]> {
    const [cards, scheduler] = await Promise.all([
      this.wordsService.respond(user, rows),
      this.parameters.schedulerOf(user.id),
    ]);
    const states = rows.length ? await this.words.findBy({ id: In(rows.map((row) => Number(row.id))) }) : [];
    const byId = new Map(states.map((word) => [word.id, word]));
    return cards.map((card) => {
      const word = byId.get(card.id)!;
      return { ...card, next: this.next(scheduler, word, now), version: word.version };
    });
  }

  /**
   * Applies one answer, once. With `version` (the version the card was shown at), an answer to any other
   * version is a 409: exact, however the requests are timed. Without it, an answer to a card answered
   * under DUPLICATE_WINDOW_MS before this answer's time is a 409. Both conditions are in the UPDATE itself,
   * with the version the card was read at, so answers racing on PostgreSQL's pool apply once: the losers
   * match no row. With `reviewed_at` (an answer made offline), FSRS schedules from that time, and the log
   * and the stats count it then.
   */
  async answer(user: User, wordId: number, dto: ReviewAnswerDto): Promise<ReviewResultAnswer> {
    const { rating, version: shownVersion, reviewed_at: reviewedAt } = dto;
    const word = await this.words.findOneBy({ id: wordId, userId: user.id });
    if (!word) throw new NotFoundException('Word not found.');
    if (shownVersion !== undefined && shownVersion !== word.version) throw new ConflictException(ANSWERED);
    const now = this.clock.now();
    // The moment the answer was given: now, or the time an answer made offline says it was given.
    const at = reviewedAt == null ? now : sentAt(new Date(reviewedAt), now, word);
    const settled = new Date(at.getTime() - DUPLICATE_WINDOW_MS);
    const byTime = shownVersion === undefined;
    if (byTime && word.lastReview && word.lastReview > settled) throw new ConflictException(JUST_ANSWERED);
    const { card } = (await this.parameters.schedulerOf(user.id)).answer(word, rating, at);
    await this.db.transaction(async (tx) => {
      const { affected } = await tx.getRepository(SavedWord).update(
        {
          id: word.id,
          version: word.version,
          ...(byTime && { lastReview: Or(IsNull(), LessThanOrEqual(settled)) }),
        },
        { ...card, version: word.version + 1 },
      );
      if (!affected) throw new ConflictException(byTime ? JUST_ANSWERED : ANSWERED);
      await tx.getRepository(ReviewLog).insert({
        wordId: word.id,
        userId: user.id,
        rating,
        ...cardOf(word),
        version: word.version,
        reviewedAt: at,
        reviewedQuarter: quarterOf(at),
      });
    });
    return {
      data: {
        id: word.id,
        due_at: card.due.toISOString(),
        interval: formatInterval(at, card.due),
        state: card.state,
        reps: card.reps,
        lapses: card.lapses,
      },
    };
  }

  /**
   * Takes back the member's latest answer: the card returns to exactly what it was, and its log row goes.
   * Only while nothing has changed the card since (its version is still the one that answer wrote), so an
   * undo from one tab cannot clobber an answer given in another. Repeated, it goes further back.
   */
  async undo(user: User): Promise<ReviewUndoAnswer> {
    const log = await this.db
      .getRepository(ReviewLog)
      .findOne({ where: { userId: user.id }, order: { reviewedAt: 'DESC', id: 'DESC' } });
    if (!log) throw new NotFoundException('There is no answer to undo.');
    await this.db.transaction(async (tx) => {
      const { affected } = await tx.getRepository(SavedWord).update(
        { id: log.wordId, userId: user.id, version: log.version + 1 },
        // Back to the version it had: that answer's own log before this one then matches again, so
        // undo can go on back through the same card's answers.
        { ...cardOf(log), version: log.version },
      );
      if (!affected) throw new ConflictException('That card has changed since. Reload to see it.');
      await tx.getRepository(ReviewLog).delete({ id: log.id });
    });
    const [card] = await this.cards(user, [await this.wordsService.row(user, log.wordId)], this.clock.now());
    return { data: card, message: 'The last answer has been undone.' };
  }

  private next(scheduler: Scheduler, word: SavedWord, now: Date): NextDue {
    const preview = scheduler.preview(word, now);
    const entry = (due: Date) => ({ due_at: due.toISOString(), label: formatInterval(now, due) });
    return {
      again: entry(preview.again),
      hard: entry(preview.hard),
      good: entry(preview.good),
      easy: entry(preview.easy),
    };
  }
}
