import { IsIn, IsInt, IsNotEmpty, IsOptional, Min } from 'class-validator';
import { Field } from '../common/field';
import { ToInteger } from '../common/form-values';
import type { WordResponse } from './words.dto';

const RATING_MESSAGE = 'The rating must be 1 (Again), 2 (Hard), 3 (Good) or 4 (Easy).';

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
   */
  @Field(IsOptional(), ToInteger(), IsInt({ message: 'The version must be a whole number.' }), Min(0))
  version?: number;
}

/** When the card would be due after each answer, and how that reads on its button. */
export interface NextDue {
  again: { due_at: string; label: string };
  hard: { due_at: string; label: string };
  good: { due_at: string; label: string };
  easy: { due_at: string; label: string };
}

export interface ReviewCard extends WordResponse {
  next: NextDue;
  /** Send it back with the answer. */
  version: number;
}
