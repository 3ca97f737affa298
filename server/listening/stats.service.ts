import { Injectable } from '@nestjs/common';
import { DataSource, MoreThanOrEqual } from 'typeorm';
import { Chapter } from '../chapters/chapter.entity';
import { Clock } from '../common/clock';
import { dateFromDb } from '../database/db-dates';
import { addDays, localDate, startOfDate } from '../common/time-zone';
import { Phrase } from '../phrases/phrase.entity';
import type { User } from '../users/user.entity';
import { ReviewLog } from '../words/review-log.entity';
import { SavedWord } from '../words/saved-word.entity';
import { ListeningEvent } from './listening-event.entity';
import { activeDates, streakDays } from './streak';

/** The chart's length, in the member's days. */
export const CHART_DAYS = 30;
/** How far back each look for the start of a streak goes; a longer streak takes another look. */
const STREAK_WINDOW_DAYS = 120;

/** What a learner sees of their own progress on the dashboard. */
@Injectable()
export class StatsService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async stats(user: User) {
    const zone = user.timeZone;
    const today = localDate(this.clock.now(), zone);
    const first = addDays(today, -(CHART_DAYS - 1));
    const since = startOfDate(first, zone);
    const [heard, reviewed] = await Promise.all([
      this.db.getRepository(ListeningEvent).find({
        select: { heardAt: true, ms: true },
        where: { userId: user.id, heardAt: MoreThanOrEqual(since) },
      }),
      this.db.getRepository(ReviewLog).find({
        select: { reviewedAt: true },
        where: { userId: user.id, reviewedAt: MoreThanOrEqual(since) },
      }),
    ]);
    const days = new Map<string, { ms: number; reviews: number }>();
    for (let i = 0; i < CHART_DAYS; i++) days.set(addDays(first, i), { ms: 0, reviews: 0 });
    for (const event of heard) {
      const day = days.get(localDate(event.heardAt, zone));
      if (day) day.ms += event.ms;
    }
    for (const log of reviewed) {
      const day = days.get(localDate(log.reviewedAt, zone));
      if (day) day.reviews++;
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
        time_zone: zone ?? 'UTC',
      },
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
        this.db
          .getRepository(ListeningEvent)
          .createQueryBuilder('e')
          .select('e.heardAt', 'at')
          .where('e.userId = :id AND e.heardAt >= :from AND e.heardAt < :to', { id: user.id, ...range })
          .getRawMany<{ at: Date | string }>(),
        this.db
          .getRepository(ReviewLog)
          .createQueryBuilder('l')
          .select('l.reviewedAt', 'at')
          .where('l.userId = :id AND l.reviewedAt >= :from AND l.reviewedAt < :to', { id: user.id, ...range })
          .getRawMany<{ at: Date | string }>(),
      ]);
      for (const date of activeDates(
        [...heard, ...reviewed].map((row) => dateFromDb(row.at)),
        user.timeZone,
      ))
        active.add(date);
      const streak = streakDays(active, today);
      // The streak reaches this window's first day only if it may go on before it.
      if (streak === 0 || addDays(today, -streak) >= start) return streak;
    }
  }

  /** Books whose last chapter the member has heard every phrase of. */
  private async booksFinished(user: User): Promise<number> {
    const lastChapters = await this.db
      .getRepository(Chapter)
      .createQueryBuilder('c')
      .select('c.id', 'id')
      .addSelect((sub) => sub.select('COUNT(*)').from(Phrase, 'p').where('p.chapterId = c.id'), 'phrases')
      .addSelect(
        (sub) =>
          sub
            .select('COUNT(DISTINCT e.phraseId)')
            .from(ListeningEvent, 'e')
            .where('e.chapterId = c.id AND e.userId = :id'),
        'heard',
      )
      .where(
        (qb) =>
          `c.bookId IN ${qb
            .subQuery()
            .select('DISTINCT e2.bookId')
            .from(ListeningEvent, 'e2')
            .where('e2.userId = :id')
            .getQuery()}`,
      )
      .andWhere((qb) => {
        const last = qb
          .subQuery()
          .select('MAX(c2.chapterNo)')
          .from(Chapter, 'c2')
          .where('c2.bookId = c.bookId');
        return `c.chapterNo = ${last.getQuery()}`;
      })
      .setParameters({ id: user.id })
      .getRawMany<{ id: number; phrases: number | string; heard: number | string }>();
    return lastChapters.filter((c) => Number(c.phrases) > 0 && Number(c.heard) >= Number(c.phrases)).length;
  }

  private async count(query: { getRawOne<T>(): Promise<T | undefined> }): Promise<number> {
    const row = await query.getRawOne<{ count: number | string }>();
    return Number(row?.count ?? 0);
  }
}
