import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsUUID,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Field } from '../../platform/common/field';
import { dateTimeRules, SENT_LATER_MAX_AGE_DAYS } from '../../platform/common/sent-later';

/** At most this many events a call: a player sends a few at a time, and a backlog in several calls. */
export const MAX_EVENTS = 200;
const AT_MESSAGE = 'The time heard must be a date and time such as 2026-11-22T09:30:00Z.';
/**
 * Listening reports a member may send a minute. The player sends one after five phrases or 15 s, so a
 * reader sends a few a minute; several tabs at once stay well under it.
 */
export const LISTENING_REPORTS_LIMIT = {
  bucket: 'listening',
  limit: 30,
  windowMs: 60_000,
  message: 'Too many listening reports. Please try again in a minute.',
};
/** No clip lasts an hour; a longer duration is a client's mistake. */
const MAX_MS = 3_600_000;

export class ListeningEventDto {
  @Field(
    IsNotEmpty({ message: 'Each event needs an id.' }),
    IsUUID('all', { message: 'An event id must be a UUID made by the client.' }),
  )
  id: string;

  @Field(
    IsNotEmpty({ message: 'Each event needs a phrase id.' }),
    IsInt({ message: 'The phrase id must be a whole number.' }),
    Min(1, { message: 'The phrase id must be 1 or more.' }),
    Max(2_147_483_647, { message: 'The phrase id is too large.' }),
  )
  phrase_id: number;

  @Field(
    IsNotEmpty({ message: 'Each event needs its duration in ms.' }),
    IsInt({ message: 'The duration must be a whole number of milliseconds.' }),
    Min(0, { message: 'The duration must not be negative.' }),
    Max(MAX_MS, { message: 'The duration must be under an hour.' }),
  )
  ms: number;

  @Field(IsNotEmpty({ message: 'Each event needs the time it was heard.' }), ...dateTimeRules(AT_MESSAGE))
  at: string;
}

export class ListeningDto {
  @Field(
    IsNotEmpty({ message: 'The events field is required.' }),
    IsArray({ message: 'The events must be a list.' }),
    IsObject({ each: true, message: 'Each event must be an object.' }),
    ArrayMaxSize(MAX_EVENTS, { message: `At most ${MAX_EVENTS} events can be sent at once.` }),
    ValidateNested({ each: true }),
    Type(() => ListeningEventDto),
  )
  events: ListeningEventDto[];
}

export class ListeningCounts {
  @ApiProperty({ description: 'Events recorded now.' }) accepted: number;
  @ApiProperty({ description: 'Events received before (a retried batch): ignored.' }) duplicates: number;
  @ApiProperty({
    description: `Events about a phrase that is gone or locked, heard more than ${SENT_LATER_MAX_AGE_DAYS} days ago, or shorter than a second (or than the clip, when shorter): ignored.`,
  })
  skipped: number;
}

export class ListeningAnswer {
  @ApiProperty() message: string;
  @ApiProperty({ type: ListeningCounts }) data: ListeningCounts;
}

export class StatsDay {
  @ApiProperty({ format: 'date', description: "A day in the member's time zone." }) date: string;
  @ApiProperty({ description: 'Minutes listened, to a tenth.' }) minutes: number;
  @ApiProperty() reviews: number;
}

export class DictationDay {
  @ApiProperty({ format: 'date', description: "A day in the member's time zone." }) date: string;
  @ApiProperty() attempts: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'The mean score that day, rounded; null with none.',
  })
  accuracy: number | null;
}

export class DictationStats {
  @ApiProperty({ type: [DictationDay], description: 'The same days as `days`, oldest first.' })
  days: DictationDay[];
  @ApiProperty({ description: 'Attempts over those days.' }) attempts: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'The mean score over those days, rounded; null with no attempt.',
  })
  accuracy: number | null;
}

export class KnownWordsLine {
  @ApiProperty({ description: 'The language (primary subtag).' }) lang: string;
  @ApiProperty({
    type: [Number],
    description: 'The words known at the end of each of the same days as `days`, oldest first.',
  })
  known: number[];
}

export class Stats {
  @ApiProperty({ type: [StatsDay], description: 'The last days, oldest first.' }) days: StatsDay[];
  @ApiProperty() phrases_heard: number;
  @ApiProperty() words_saved: number;
  @ApiProperty() reviews_done: number;
  @ApiProperty() streak_days: number;
  @ApiProperty() books_finished: number;
  @ApiProperty({ type: DictationStats, description: 'Dictation accuracy over the same days.' })
  dictation: DictationStats;
  @ApiProperty({
    type: [KnownWordsLine],
    description:
      'Known words per language over the same days (docs/word-status.md); languages with none are left out.',
  })
  known_words: KnownWordsLine[];
  @ApiProperty({ description: 'The time zone the days are counted in.' }) time_zone: string;
}

export class StatsAnswer {
  @ApiProperty({ type: Stats }) data: Stats;
}
