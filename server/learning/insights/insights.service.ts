import { Injectable, NotFoundException } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { joinCatalogue } from '../../content/catalogue/repository/catalogue-joins';
import { ChaptersRepository } from '../../content/catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../../content/catalogue/repository/phrases.repository';
import { ListeningEvent } from '../listening/listening-event.entity';
import { PhraseMark } from '../practice/phrase-mark.entity';
import { User, UserType } from '../../accounts/users/user.entity';

/** How many phrases the replay ranking lists. */
export const MOST_REPLAYED = 10;
/** How many phrases the Lost ranking lists. */
export const MOST_LOST = 10;
/** Phrases are quoted up to this many characters: enough to recognise one, short enough for a table. */
export const QUOTE_LENGTH = 120;

export class StopPoint {
  @ApiProperty() chapter_no: number;
  @ApiProperty() position: number;
  @ApiProperty({ description: 'The phrase, quoted.' }) text: string;
  @ApiProperty({ description: 'Listeners whose furthest phrase in the chapter is this one.' })
  listeners_stopped: number;
  @ApiProperty({ description: 'Listeners who heard at least one phrase of the chapter.' }) listeners: number;
}

export class ChapterInsight {
  @ApiProperty() chapter_no: number;
  @ApiProperty() title: string;
  @ApiProperty({ description: 'How many readers reached the chapter.' }) reached: number;
  @ApiProperty({ type: StopPoint, nullable: true, description: 'Where most listeners stopped.' })
  stopped_at: StopPoint | null;
}

export class ReplayedPhrase {
  @ApiProperty() phrase_id: number;
  @ApiProperty() chapter_no: number;
  @ApiProperty() position: number;
  @ApiProperty({ description: 'The phrase, quoted.' }) text: string;
  @ApiProperty() replays: number;
  @ApiProperty() listeners: number;
}

export class LostPhrase {
  @ApiProperty() phrase_id: number;
  @ApiProperty() chapter_no: number;
  @ApiProperty() position: number;
  @ApiProperty({ description: 'The phrase, quoted.' }) text: string;
  @ApiProperty({ description: 'Members whose latest mark on the phrase is Lost.' }) lost: number;
}

/** GET admin/book/{book_code}/insights: aggregates only, never a member's id, name or email. */
export class BookInsights {
  @ApiProperty({ description: 'How many members started the book.' }) started: number;
  @ApiProperty({ type: [ChapterInsight] }) chapters: ChapterInsight[];
  @ApiProperty({ type: [ReplayedPhrase] }) most_replayed: ReplayedPhrase[];
  @ApiProperty({
    type: [LostPhrase],
    description: `The ${MOST_LOST} phrases most members marked Lost (docs/practice.md), ties by chapter then position.`,
  })
  most_lost: LostPhrase[];
}

export class BookInsightsAnswer {
  @ApiProperty({ type: BookInsights }) data: BookInsights;
}

type Count = number | string;

/**
 * What authors learn about their readers, from the listening events and reading places of members
 * (user_type 2; administrators' own listening is proofreading, not reading, and is left out):
 *
 * - started: distinct members with a listening event in the book or a reading place in it;
 * - reached (per chapter): distinct members with a listening event in the chapter or a reading place in it;
 * - most replayed: per phrase, every play after each listener's first, at most one per listener and
 *   minute (see mostReplayed); the top 10 with at least one replay, ties by chapter then position;
 * - stopped at (per chapter): of the members who heard a phrase of the chapter but not its last one, each
 *   one's furthest position; the position most of them share (ties: the earliest), or null when nobody
 *   stopped short;
 * - most lost: per phrase, the members whose latest "did you understand?" mark is Lost (one mark per member
 *   and phrase, so nobody counts twice); the top 10 with at least one, ties by chapter then position.
 *
 * The number of queries does not grow with chapters or members: per-member figures are grouped in SQL and
 * only per-chapter tallies come back.
 */
@Injectable()
export class InsightsService {
  constructor(
    private readonly db: DataSource,
    private readonly books: BooksRepository,
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
  ) {}

  async forBook(bookCode: string): Promise<BookInsightsAnswer> {
    const book = await this.books.byCode(bookCode);
    if (!book) throw new NotFoundException('Book not found.');
    const [chapters, started, reached, furthest, mostReplayed, mostLost] = await Promise.all([
      this.chapters.withLastPosition(book.id),
      this.started(book.id),
      this.reached(book.id),
      this.furthest(book.id),
      this.mostReplayed(book.id),
      this.mostLost(book.id),
    ]);
    const stops = new Map<number, Omit<StopPoint, 'text' | 'chapter_no'>>();
    for (const chapter of chapters) {
      const stop = stopPoint(
        furthest.get(Number(chapter.id)) ?? new Map<number, number>(),
        chapter.last_position,
      );
      if (stop) stops.set(Number(chapter.id), stop);
    }
    const texts = await this.phraseTexts(stops);
    return {
      data: {
        started,
        chapters: chapters.map((chapter) => {
          const stop = stops.get(Number(chapter.id));
          return {
            chapter_no: Number(chapter.chapter_no),
            title: chapter.title,
            reached: reached.get(Number(chapter.id)) ?? 0,
            stopped_at: stop
              ? {
                  chapter_no: Number(chapter.chapter_no),
                  position: stop.position,
                  text: texts.get(`${Number(chapter.id)}:${stop.position}`) ?? '',
                  listeners_stopped: stop.listeners_stopped,
                  listeners: stop.listeners,
                }
              : null,
          };
        }),
        most_replayed: mostReplayed,
        most_lost: mostLost,
      },
    };
  }

  /**
   * Each (member, chapter) pair the member touched, by listening or by their saved place. Plain column
   * names and UNION, which SQLite and PostgreSQL both accept; the `:bookId` is bound by the outer query.
   */
  private touched(bookId: number) {
    return this.db
      .createQueryBuilder()
      .from(
        `(SELECT e.user_id, e.chapter_id FROM listening_events e WHERE e.book_id = :bookId
          UNION SELECT rp.user_id, rp.chapter_id FROM reading_progress rp WHERE rp.book_id = :bookId)`,
        't',
      )
      .innerJoin(User, 'u', 'u.id = t.user_id AND u.userType = :member')
      .setParameters({ bookId, member: UserType.Member });
  }

  private async started(bookId: number): Promise<number> {
    const row = await this.touched(bookId)
      .select('COUNT(DISTINCT t.user_id)', 'count')
      .getRawOne<{ count: Count }>();
    return Number(row?.count ?? 0);
  }

  /** Members who reached each chapter, by chapter id. */
  private async reached(bookId: number): Promise<Map<number, number>> {
    const rows = await this.touched(bookId)
      .select('t.chapter_id', 'chapter_id')
      .addSelect('COUNT(DISTINCT t.user_id)', 'count')
      .groupBy('t.chapter_id')
      .getRawMany<{ chapter_id: Count; count: Count }>();
    return new Map(rows.map((row) => [Number(row.chapter_id), Number(row.count)]));
  }

  /**
   * How many members got no further than each position of each chapter: every member's furthest position
   * heard per chapter, grouped in SQL, then counted per chapter and position. Chapter id → position → count.
   */
  private async furthest(bookId: number): Promise<Map<number, Map<number, number>>> {
    const rows = await this.db
      .createQueryBuilder()
      .select('f.chapter_id', 'chapter_id')
      .addSelect('f.furthest', 'furthest')
      .addSelect('COUNT(*)', 'count')
      .from(
        (sub) =>
          joinCatalogue(
            sub
              .select('e.chapterId', 'chapter_id')
              .addSelect('MAX(p.position)', 'furthest')
              .from(ListeningEvent, 'e'),
            { phrase: 'e.phraseId' },
          )
            .innerJoin(User, 'u', 'u.id = e.userId')
            .where('e.bookId = :bookId', { bookId })
            .andWhere('u.userType = :member', { member: UserType.Member })
            .groupBy('e.userId')
            .addGroupBy('e.chapterId'),
        'f',
      )
      .groupBy('f.chapter_id')
      .addGroupBy('f.furthest')
      .getRawMany<{ chapter_id: Count; furthest: Count; count: Count }>();
    const tallies = new Map<number, Map<number, number>>();
    for (const row of rows) {
      const chapterId = Number(row.chapter_id);
      const tally = tallies.get(chapterId) ?? new Map<number, number>();
      tally.set(Number(row.furthest), Number(row.count));
      tallies.set(chapterId, tally);
    }
    return tallies;
  }

  /**
   * Per phrase, each member listener's replays: every play after their first, but at most one for each
   * minute their reports arrived in (by the server's clock, which a client cannot set), so that one member
   * cannot lift a phrase up the ranking with a flood of reports. Grouped per member in SQL, then summed.
   */
  private async mostReplayed(bookId: number): Promise<ReplayedPhrase[]> {
    const replays = 'SUM(CASE WHEN r.plays - 1 < r.minutes THEN r.plays - 1 ELSE r.minutes END)';
    const rows = await joinCatalogue(
      this.db
        .createQueryBuilder()
        .from(
          (sub) =>
            sub
              .select('e.phraseId', 'phrase_id')
              .addSelect('COUNT(*)', 'plays')
              .addSelect('COUNT(DISTINCT e.receivedMinute)', 'minutes')
              .from(ListeningEvent, 'e')
              .innerJoin(User, 'u', 'u.id = e.userId')
              .where('e.bookId = :bookId', { bookId })
              .andWhere('u.userType = :member', { member: UserType.Member })
              .groupBy('e.phraseId')
              .addGroupBy('e.userId'),
          'r',
        ),
      { phrase: 'r.phrase_id', chapter: 'p.chapterId' },
    )
      .select('p.id', 'phrase_id')
      .addSelect('c.chapterNo', 'chapter_no')
      .addSelect('p.position', 'position')
      .addSelect('p.phrase', 'text')
      .addSelect(replays, 'replays')
      .addSelect('COUNT(*)', 'listeners')
      .groupBy('p.id')
      .addGroupBy('c.chapterNo')
      .addGroupBy('p.position')
      .addGroupBy('p.phrase')
      .having(`${replays} > 0`)
      .orderBy('replays', 'DESC')
      .addOrderBy('c.chapterNo', 'ASC')
      .addOrderBy('p.position', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .limit(MOST_REPLAYED)
      .getRawMany<{
        phrase_id: Count;
        chapter_no: Count;
        position: Count;
        text: string;
        replays: Count;
        listeners: Count;
      }>();
    return rows.map((row) => ({
      phrase_id: Number(row.phrase_id),
      chapter_no: Number(row.chapter_no),
      position: Number(row.position),
      text: quote(row.text),
      replays: Number(row.replays),
      listeners: Number(row.listeners),
    }));
  }

  private async mostLost(bookId: number): Promise<LostPhrase[]> {
    const rows = await joinCatalogue(this.db.getRepository(PhraseMark).createQueryBuilder('m'), {
      phrase: 'm.phraseId',
      chapter: 'p.chapterId',
    })
      .innerJoin(User, 'u', 'u.id = m.userId')
      .select('p.id', 'phrase_id')
      .addSelect('c.chapterNo', 'chapter_no')
      .addSelect('p.position', 'position')
      .addSelect('p.phrase', 'text')
      .addSelect('COUNT(*)', 'lost')
      .where('c.bookId = :bookId AND m.mark = :lost', { bookId, lost: 'lost' })
      .andWhere('u.userType = :member', { member: UserType.Member })
      .groupBy('p.id')
      .addGroupBy('c.chapterNo')
      .addGroupBy('p.position')
      .addGroupBy('p.phrase')
      .orderBy('lost', 'DESC')
      .addOrderBy('c.chapterNo', 'ASC')
      .addOrderBy('p.position', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .limit(MOST_LOST)
      .getRawMany<{ phrase_id: Count; chapter_no: Count; position: Count; text: string; lost: Count }>();
    return rows.map((row) => ({
      phrase_id: Number(row.phrase_id),
      chapter_no: Number(row.chapter_no),
      position: Number(row.position),
      text: quote(row.text),
      lost: Number(row.lost),
    }));
  }

  /** The text at each stop point, keyed `chapterId:position`, in one query for all chapters. */
  private async phraseTexts(stops: Map<number, { position: number }>): Promise<Map<string, string>> {
    if (stops.size === 0) return new Map();
    const rows = await this.phrases.atPositions(
      [...stops.keys()],
      [...new Set([...stops.values()].map((stop) => stop.position))],
    );
    // Newest first, so the oldest phrase wins should two ever share a position.
    return new Map(rows.map((row) => [`${row.chapterId}:${row.position}`, quote(row.phrase)]));
  }
}

/**
 * The position where most listeners of a chapter stopped short of its last phrase (ties: the earliest),
 * from how many listeners' furthest phrase each position is; null when every listener heard the last one.
 */
export function stopPoint(
  furthest: Map<number, number>,
  lastPosition: Count | null,
): { position: number; listeners_stopped: number; listeners: number } | null {
  const listeners = [...furthest.values()].reduce((sum, count) => sum + count, 0);
  if (lastPosition === null) return null;
  let best: { position: number; listeners_stopped: number } | null = null;
  for (const [position, count] of furthest) {
    if (position >= Number(lastPosition)) continue;
    if (
      !best ||
      count > best.listeners_stopped ||
      (count === best.listeners_stopped && position < best.position)
    )
      best = { position, listeners_stopped: count };
  }
  return best && { ...best, listeners };
}

/** The first characters of a phrase, by code point, so that no character is cut in half. */
function quote(text: string): string {
  return Array.from(text).slice(0, QUOTE_LENGTH).join('');
}
