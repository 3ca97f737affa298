import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Field } from '../../platform/common/field';
import { ToInteger } from '../../platform/common/form-values';
import { CLOCK_SKEW_MS, OptionalDateTime, SENT_LATER_MAX_AGE_DAYS } from '../../platform/common/sent-later';
import { AHEAD_DAYS, MAX_AHEAD, NEW_PER_DAY } from './review-limits';
import { WordResponse } from './words.dto';

const RATING_MESSAGE = 'The rating must be 1 (Again), 2 (Hard), 3 (Good) or 4 (Easy).';
const DAYS_MESSAGE = `The days must be a whole number from 1 to ${AHEAD_DAYS}.`;

export class ReviewAnswerDto {
  @Field(
    ToInteger(),
    IsNotEmpty({ message: 'The rating field is required.' }),
    IsInt({ message: RATING_MESSAGE }),
    IsIn([1, 2, 3, 4], { message: RATING_MESSAGE }),
  )
  rating: 1 | 2 | 3 | 4;

  /**
   * The card's version as the review showed it. A second answer to the same showing (a double tap, a
   * retried request) carries the same version and is refused with 409, however the two are timed.
   * Without it, an answer to a card answered under 2 s ago is refused instead.
   */
  @Field(IsOptional(), ToInteger(), IsInt({ message: 'The version must be a whole number.' }), Min(0))
  version?: number;

  @OptionalDateTime(
    'The review time must be a date and time such as 2026-11-22T09:30:00Z.',
    `When the answer was really given, for answers made offline and sent later: the card is scheduled from it, and the review counts on its day. Without it, now. Refused (422) more than ${CLOCK_SKEW_MS / 1000} s ahead of the server's clock (up to that, it is taken as now), more than ${SENT_LATER_MAX_AGE_DAYS} days ago, before the word was saved, or before the card's last answer.`,
  )
  reviewed_at?: string;
}

/** When the card would be due after each answer, and how that reads on its button. */
export class NextDueAt {
  @ApiProperty({ format: 'date-time' }) due_at: string;
  @ApiProperty({ description: 'How the wait reads on its button, e.g. "10m", "3d".' }) label: string;
}

export class NextDue {
  @ApiProperty({ type: NextDueAt }) again: NextDueAt;
  @ApiProperty({ type: NextDueAt }) hard: NextDueAt;
  @ApiProperty({ type: NextDueAt }) good: NextDueAt;
  @ApiProperty({ type: NextDueAt }) easy: NextDueAt;
}

export class ReviewCard extends WordResponse {
  @ApiProperty({ type: NextDue }) next: NextDue;
  @ApiProperty({ description: 'Send it back with the answer.' }) version: number;
}

export class FsrsParametersState {
  @ApiProperty({
    description: 'Whether the member’s own FSRS parameters schedule their reviews (else the defaults).',
  })
  own: boolean;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When they were computed.',
  })
  computed_at: string | null;
  @ApiProperty({ description: 'Reviews the member has made.' }) reviews: number;
  @ApiProperty({
    description: 'Reviews from which their own parameters are computed (weekly, in the background).',
  })
  needed: number;
}

export class ReviewQueue {
  @ApiProperty({ type: [ReviewCard] }) cards: ReviewCard[];
  @ApiProperty() due_count: number;
  @ApiProperty() new_count: number;
  @ApiProperty({ type: FsrsParametersState, required: false }) parameters?: FsrsParametersState;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'With nothing to review now: when the next card comes (null with no words at all).',
  })
  next_due_at: string | null;
}

export class ReviewQueueAnswer {
  @ApiProperty({ type: ReviewQueue }) data: ReviewQueue;
}

export class ReviewResult {
  @ApiProperty() id: number;
  @ApiProperty({ format: 'date-time' }) due_at: string;
  @ApiProperty({ description: 'The wait until it is due, for people.' }) interval: string;
  @ApiProperty() state: number;
  @ApiProperty() reps: number;
  @ApiProperty() lapses: number;
}

export class ReviewResultAnswer {
  @ApiProperty({ type: ReviewResult }) data: ReviewResult;
}

export class ReviewUndoAnswer {
  @ApiProperty() message: string;
  @ApiProperty({ type: ReviewCard }) data: ReviewCard;
}

export class ReviewAheadQuery {
  @Field(
    IsNotEmpty({ message: 'The book code field is required.' }),
    IsString({ message: 'The book code must be text.' }),
    MaxLength(200, { message: 'The book code must not be longer than 200 characters.' }),
  )
  book_code: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: AHEAD_DAYS,
    default: AHEAD_DAYS,
    description: 'How far ahead to look, in days of 24 hours from now.',
  })
  @Field(
    IsOptional(),
    ToInteger(),
    IsInt({ message: DAYS_MESSAGE }),
    Min(1, { message: DAYS_MESSAGE }),
    Max(AHEAD_DAYS, { message: DAYS_MESSAGE }),
  )
  days?: number;
}

export class ReviewAhead {
  @ApiProperty({
    type: [ReviewCard],
    description: `The member's cards of the book that come due by \`until\`: learnt cards (state other than 0) due by then, earliest due first, then every new card (state 0), oldest saved first. At most ${MAX_AHEAD}: past that, the first ${MAX_AHEAD} in that order. Each card as \`GET user/review\` gives it (\`next\` as of now); a locked chapter's \`audio\` is a signed link that expires within hours, so fetch the clips when this answer comes.`,
  })
  cards: ReviewCard[];

  @ApiProperty({ format: 'date-time', description: 'Now plus `days` (24 hours each).' })
  until: string;

  @ApiProperty({
    description: `New cards the member may still start today, counted in the member's days as \`GET user/review\` counts them (${NEW_PER_DAY} a day, less those started today). Each later day allows ${NEW_PER_DAY} again.`,
  })
  new_limit: number;
}

export class ReviewAheadAnswer {
  @ApiProperty({ type: ReviewAhead }) data: ReviewAhead;
}
