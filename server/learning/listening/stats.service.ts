import { Injectable } from '@nestjs/common';
import type { DictationStats, StatsAnswer } from './listening.dto';
import { DataSource } from 'typeorm';
import { isLastChapter, phraseCountOf } from '../../content/catalogue/repository/catalogue-joins';
import { Clock } from '../../platform/common/clock';
import { addDays, localDate, quarterOf, quarterStart, startOfDate } from '../../platform/common/time-zone';
import type { User } from '../../accounts/users/user.entity';
import { DictationAttempt } from '../practice/dictation-attempt.entity';
import { ReviewLog } from '../words/review-log.entity';
import { SavedWord } from '../words/saved-word.entity';
import { ListeningEvent } from './listening-event.entity';
import { activeDates, streakDays } from './streak';
import { knownWordsByDay } from '../word-status/known-words-history';

/** The chart's length, in the member's days. */
export const CHART_DAYS = 30;
interface Range {
  from: Date;
  to: Date;
}

const quarters = (range: Range) => ({ from: quarterOf(range.from), to: quarterOf(range.to) });

/** How far back each look for the start of a streak goes; a longer streak takes another look. */
const STREAK_WINDOW_DAYS = 120;

/** What a learner sees of their own progress on the dashboard. */
@Injectable()
export class StatsService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async stats(user: User): Promise<StatsAnswer> {
    const zone = user.timeZone;
    const today = localDate(this.clock.now(), zone);
    const first = addDays(today, -(CHART_DAYS - 1));
    const range = { from: startOfDate(first, zone), to: startOfDate(addDays(today, 1), zone) };
    const midnights = Array.from({ length: CHART_DAYS + 1 }, (_, i) => startOfDate(addDays(first, i), zone));
    const [heard, reviewed, dictation, knownWords] = await Promise.all([
      this.heardByPeriod(user, range),
      this.reviewsByPeriod(user, range),
      this.dictation(user, first),
      knownWordsByDay(this.db, user.id, midnights),
    ]);
    const days = new Map<string, { ms: number; reviews: number }>();
    for (let i = 0; i < CHART_DAYS; i++) days.set(addDays(first, i), { ms: 0, reviews: 0 });
    for (const period of heard) {
      const day = days.get(localDate(quarterStart(period.quarter), zone));
      if (day) day.ms += period.ms;
    }
    for (const period of reviewed) {
      const day = days.get(localDate(quarterStart(period.quarter), zone));
      if (day) day.reviews += period.count;
    }
    const [phrasesHeard, wordsSaved, reviewsDone, booksFinished, streak] = await Promise.all([
      this.count(
        this.db
          .getRepository(ListeningEvent)
          .createQueryBuilder('e')
          .select('COUNT(DISTINCT e.phraseId)', 'count')
          .where('e.userId = :id', { id: user.id }),
      ),
      this.db.getRepository(SavedWord).countBy({ userId: user.id }),
      this.db.getRepository(ReviewLog).countBy({ userId: user.id }),
      this.booksFinished(user),
      this.streak(user, today),
    ]);
    return {
      data: {
        days: [...days].map(([date, day]) => ({
          date,
          minutes: Math.round(day.ms / 6000) / 10,
          reviews: day.reviews,
        })),
        phrases_heard: phrasesHeard,
        words_saved: wordsSaved,
        reviews_done: reviewsDone,
        streak_days: streak,
        books_finished: booksFinished,
        dictation,
        known_words: knownWords,
        time_zone: zone ?? 'UTC',
      },
    };
  }

  /**
   * Listening summed per 15-minute period in SQL: a few thousand rows for a month at most, however much
   * the member listened. Every zone's midnight is a period boundary, so periods fall into whole days.
   */
  private async heardByPeriod(user: User, range: Range) {
    const rows = await this.db
      .getRepository(ListeningEvent)
      .createQueryBuilder('e')
      .select('e.heardQuarter', 'quarter')
      .addSelect('SUM(e.ms)', 'ms')
      .where('e.userId = :id AND e.heardQuarter >= :from AND e.heardQuarter < :to', {
        id: user.id,
        ...quarters(range),
      })
      .groupBy('e.heardQuarter')
      .getRawMany<{ quarter: number | string; ms: number | string }>();
    return rows.map((row) => ({ quarter: Number(row.quarter), ms: Number(row.ms) }));
  }

  private async reviewsByPeriod(user: User, range: Range) {
    const rows = await this.db
      .getRepository(ReviewLog)
      .createQueryBuilder('l')
      .select('l.reviewedQuarter', 'quarter')
      .addSelect('COUNT(*)', 'count')
      .where('l.userId = :id AND l.reviewedQuarter >= :from AND l.reviewedQuarter < :to', {
        id: user.id,
        ...quarters(range),
      })
      .groupBy('l.reviewedQuarter')
      .getRawMany<{ quarter: number | string; count: number | string }>();
    return rows.map((row) => ({ quarter: Number(row.quarter), count: Number(row.count) }));
  }

  /**
   * Dictation over the chart's days: attempts and mean score per day, and over the whole period. One
   * query: each attempt is given its day's index by comparing it with the member's midnights (a CASE over
   * bound instants, which both databases take), and counted and summed per index.
   */
  private async dictation(user: User, first: string): Promise<DictationStats> {
    const midnights = Array.from({ length: CHART_DAYS + 1 }, (_, i) =>
      startOfDate(addDays(first, i), user.timeZone),
    );
    const params = Object.fromEntries(midnights.map((at, i) => [`day${i}`, at]));
    const dayIndex = `CASE ${midnights
      .slice(1)
      .map((_, i) => `WHEN d.createdAt < :day${i + 1} THEN ${i}`)
      .join(' ')} END`;
    const rows = await this.db
      .createQueryBuilder()
      .select('t.day', 'day')
      .addSelect('COUNT(*)', 'attempts')
      .addSelect('SUM(t.score)', 'scores')
      .from(
        (sub) =>
          sub
            .select(dayIndex, 'day')
            .addSelect('d.score', 'score')
            .from(DictationAttempt, 'd')
            .where('d.userId = :id AND d.createdAt >= :day0', { id: user.id })
            .andWhere(`d.createdAt < :day${CHART_DAYS}`),
        't',
      )
      .setParameters(params)
      .groupBy('t.day')
      .getRawMany<{ day: number | string; attempts: number | string; scores: number | string }>();
    const byDay = new Map(
      rows.map((row) => [Number(row.day), { attempts: Number(row.attempts), scores: Number(row.scores) }]),
    );
    const accuracy = (day?: { attempts: number; scores: number }) =>
      day?.attempts ? Math.round(day.scores / day.attempts) : null;
    const whole = [...byDay.values()].reduce(
      (sum, day) => ({ attempts: sum.attempts + day.attempts, scores: sum.scores + day.scores }),
      { attempts: 0, scores: 0 },
    );
    return {
      days: Array.from({ length: CHART_DAYS }, (_, i) => {
        const day = byDay.get(i);
        return { date: addDays(first, i), attempts: day?.attempts ?? 0, accuracy: accuracy(day) };
      }),
      attempts: whole.attempts,
      accuracy: accuracy(whole),
    };
  }

  /** Consecutive days with listening or reviews, looking further back only while the streak goes on. */
  private async streak(user: User, today: string): Promise<number> {
    const active = new Set<string>();
    for (let end = today; ; end = addDays(end, -STREAK_WINDOW_DAYS)) {
      const start = addDays(end, -(STREAK_WINDOW_DAYS - 1));
      const range = {
        from: startOfDate(start, user.timeZone),
        to: startOfDate(addDays(end, 1), user.timeZone),
      };
      const [heard, reviewed] = await Promise.all([
        this.heardByPeriod(user, range),
        this.reviewsByPeriod(user, range),
      ]);
      const instants = [...heard, ...reviewed].map((period) => quarterStart(period.quarter));
      for (const date of activeDates(instants, user.timeZone)) active.add(date);
      const streak = streakDays(active, today);
      // The earliest day counted: if it is this window's first, the streak may go on before it.
      const earliest = addDays(active.has(today) ? today : addDays(today, -1), -(streak - 1));
      if (streak === 0 || earliest > start) return streak;
    }
  }

  /** Books whose last chapter the member has heard every phrase of: one row per last chapter heard. */
  private async booksFinished(user: User): Promise<number> {
    const lastChapters = await this.db
      .getRepository(ListeningEvent)
      .createQueryBuilder('e')
      .select('e.chapterId', 'id')
      .addSelect(phraseCountOf('e.chapterId'), 'phrases')
      .addSelect('COUNT(DISTINCT e.phraseId)', 'heard')
      .where('e.userId = :id', { id: user.id })
      .andWhere(isLastChapter('e.chapterId'))
      .groupBy('e.chapterId')
      .getRawMany<{ id: number; phrases: number | string; heard: number | string }>();
    return lastChapters.filter((c) => Number(c.phrases) > 0 && Number(c.heard) >= Number(c.phrases)).length;
  }

  private async count(query: { getRawOne<T>(): Promise<T | undefined> }): Promise<number> {
    const row = await query.getRawOne<{ count: number | string }>();
    return Number(row?.count ?? 0);
  }
}
