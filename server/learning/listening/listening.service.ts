import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { PhrasesRepository, type PhrasePlace } from '../../content/catalogue/repository/phrases.repository';
import { Clock } from '../../platform/common/clock';
import { olderThanWindow } from '../../platform/common/sent-later';
import { quarterOf } from '../../platform/common/time-zone';
import { Access } from '../../content/access/access.service';
import type { User } from '../../accounts/users/user.entity';
import { ListeningEvent } from './listening-event.entity';
import type { ListeningAnswer, ListeningEventDto } from './listening.dto';
import { receivedMinuteOf } from './received-minute';
import { insertedRows } from '../../platform/database/sql';

/**
 * How far a client's clock may run ahead before its times are taken as now. Reports are never refused for
 * their time, so this is looser than the 60 s after which a review's `reviewed_at` is refused.
 */
const CLOCK_SKEW_MS = 5 * 60_000;
/**
 * A phrase heard to its end lasts as long as its clip: an event shorter than a second, or than the clip
 * when the clip is shorter, was not a listen (a made-up report, a skipped clip). A clip whose length is
 * not known gets the whole second.
 */
export const MIN_HEARD_MS = 1000;

export const heardFloor = (clipMs: number | null): number =>
  clipMs && clipMs > 0 ? Math.min(MIN_HEARD_MS, clipMs) : MIN_HEARD_MS;

/** The player's reports of phrases heard to their end: the raw material of stats and insights. */
@Injectable()
export class ListeningService {
  constructor(
    @InjectRepository(ListeningEvent) private readonly events: Repository<ListeningEvent>,
    private readonly phrases: PhrasesRepository,
    private readonly access: Access,
    private readonly clock: Clock,
  ) {}

  /**
   * Records a batch. An id already received (a retried batch) is ignored, so nothing counts twice; a
   * phrase that does not exist or that the member may not read, a report older than the window of actions
   * sent later (30 days, platform/common/sent-later.ts), or one shorter than heardFloor, is skipped. The answer says
   * how many of each.
   */
  async record(user: User, batch: ListeningEventDto[]): Promise<ListeningAnswer> {
    const now = this.clock.now();
    const unique = new Map(batch.map((event) => [event.id.toLowerCase(), event]));
    const readable = await this.readablePhrases(user, [...new Set(batch.map((event) => event.phrase_id))]);
    const known = unique.size
      ? await this.events.find({
          select: { eventId: true },
          where: { userId: user.id, eventId: In([...unique.keys()]) },
        })
      : [];
    const seen = new Set(known.map((event) => event.eventId));
    const rows: Omit<ListeningEvent, 'id'>[] = [];
    let skipped = 0;
    for (const [id, event] of unique) {
      if (seen.has(id)) continue;
      const phrase = readable.get(event.phrase_id);
      const reported = new Date(event.at);
      if (
        !phrase ||
        // Reports queued offline come days later; older than the window is a wrong clock or a made-up streak.
        olderThanWindow(reported, now) ||
        event.ms < heardFloor(phrase.audio_ms)
      ) {
        skipped++;
        continue;
      }
      const at = reported.getTime() > now.getTime() + CLOCK_SKEW_MS ? now : reported;
      rows.push({
        userId: user.id,
        eventId: id,
        phraseId: event.phrase_id,
        bookId: Number(phrase.book_id),
        chapterId: Number(phrase.chapter_id),
        ms: event.ms,
        heardAt: at,
        heardQuarter: quarterOf(at),
        receivedAt: now,
        receivedMinute: receivedMinuteOf(now),
      });
    }
    // A batch retried while the first is still being written meets the unique index: ignored, not a 500,
    // and counted as duplicates by what the database wrote.
    const accepted = rows.length
      ? await insertedRows(
          this.events.manager,
          this.events.createQueryBuilder().insert().values(rows).orIgnore(),
        )
      : 0;
    return {
      data: { accepted, duplicates: batch.length - accepted - skipped, skipped },
      message: `${accepted} listening ${accepted === 1 ? 'event' : 'events'} recorded.`,
    };
  }

  /** The phrases of the batch that exist and that the member may read, with their chapter and book. */
  private async readablePhrases(user: User, ids: number[]): Promise<Map<number, PhrasePlace>> {
    if (!ids.length) return new Map();
    const rows = await this.phrases.places(ids);
    const readable = await this.access.readable(user, rows);
    return new Map(rows.filter(readable).map((row) => [Number(row.id), row]));
  }
}
