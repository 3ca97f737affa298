/**
 * A member's review history as the FSRS optimiser learns from it (docs/practice.md, "Your own FSRS"): one
 * training item per review after a card's first, holding that card's reviews up to it, each with its
 * rating and the days since the review before (0 for the first). Days are the member's calendar days, as
 * FSRS counts them: two reviews on the same day are 0 days apart.
 */
import { localDate } from '../../platform/common/time-zone';

/** The fewest reviews before a member's own parameters are computed: fewer fit noise. */
export const MIN_REVIEWS = 400;
/** The most reviews one computation reads: the newest, so the work stays bounded. */
export const MAX_TRAINING_REVIEWS = 50_000;

export interface LoggedReview {
  wordId: number;
  rating: number;
  reviewedAt: Date;
}

export interface TrainingReview {
  rating: number;
  deltaT: number;
}

const dayNumber = (at: Date, zone: string | null) =>
  Date.parse(`${localDate(at, zone)}T00:00:00Z`) / 86_400_000;

/** The items, from reviews in any order (grouped by card and sorted by time here). */
export function trainingItems(reviews: LoggedReview[], zone: string | null): TrainingReview[][] {
  const byWord = new Map<number, LoggedReview[]>();
  for (const review of reviews) byWord.set(review.wordId, [...(byWord.get(review.wordId) ?? []), review]);
  const items: TrainingReview[][] = [];
  for (const list of byWord.values()) {
    list.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
    const history: TrainingReview[] = [];
    for (const [i, review] of list.entries()) {
      const deltaT =
        i === 0 ? 0 : dayNumber(review.reviewedAt, zone) - dayNumber(list[i - 1].reviewedAt, zone);
      history.push({ rating: review.rating, deltaT });
      if (i > 0) items.push([...history]);
    }
  }
  return items;
}
