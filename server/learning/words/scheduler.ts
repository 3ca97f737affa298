import { createEmptyCard, fsrs, Rating, type Card, type FSRS, type Grade, type ReviewLog } from 'ts-fsrs';
import type { SavedWord } from './saved-word.entity';

/** Anki's answer buttons: 1 Again, 2 Hard, 3 Good, 4 Easy. */
export const RATINGS = [Rating.Again, Rating.Hard, Rating.Good, Rating.Easy] as const;

/** The columns of a saved word that hold its FSRS card. */
export type CardColumns = Pick<
  SavedWord,
  | 'due'
  | 'stability'
  | 'difficulty'
  | 'elapsedDays'
  | 'scheduledDays'
  | 'learningSteps'
  | 'reps'
  | 'lapses'
  | 'state'
  | 'lastReview'
>;

function toCard(word: CardColumns): Card {
  return {
    due: word.due,
    stability: word.stability,
    difficulty: word.difficulty,
    elapsed_days: word.elapsedDays,
    scheduled_days: word.scheduledDays,
    learning_steps: word.learningSteps,
    reps: word.reps,
    lapses: word.lapses,
    state: word.state,
    last_review: word.lastReview ?? undefined,
  };
}

function toColumns(card: Card): CardColumns {
  return {
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    elapsedDays: card.elapsed_days,
    scheduledDays: card.scheduled_days,
    learningSteps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    state: card.state,
    lastReview: card.last_review ?? null,
  };
}

/** Just the card's columns of a saved word or a review log's copy of one. */
export function cardOf(source: CardColumns): CardColumns {
  return {
    due: source.due,
    stability: source.stability,
    difficulty: source.difficulty,
    elapsedDays: source.elapsedDays,
    scheduledDays: source.scheduledDays,
    learningSteps: source.learningSteps,
    reps: source.reps,
    lapses: source.lapses,
    state: source.state,
    lastReview: source.lastReview,
  };
}

/** A new card, due at once: what every saved word starts as. */
export function newCard(now: Date): CardColumns {
  return toColumns(createEmptyCard(now));
}

/**
 * FSRS through ts-fsrs, with its default parameters or a member's own (docs/practice.md, "Your own FSRS")
 * and a target retention of 0.9: the one place that knows the library, so the rest of the code deals in
 * saved words and dates.
 */
export class Scheduler {
  private readonly fsrs: FSRS;

  /** `weights`: a member's own parameters (fsrs-training.ts), else FSRS's defaults. */
  constructor(fuzz: boolean, weights?: readonly number[]) {
    this.fsrs = fsrs({ request_retention: 0.9, enable_fuzz: fuzz, ...(weights ? { w: [...weights] } : {}) });
  }

  /** The card after one answer, and the log of that answer. */
  answer(word: CardColumns, rating: Grade, now: Date): { card: CardColumns; log: ReviewLog } {
    const { card, log } = this.fsrs.next(toCard(word), now, rating);
    return { card: toColumns(card), log };
  }

  /** When the card would next be due after each answer, for the buttons' labels. */
  preview(word: CardColumns, now: Date): Record<'again' | 'hard' | 'good' | 'easy', Date> {
    const outcomes = this.fsrs.repeat(toCard(word), now);
    return {
      again: outcomes[Rating.Again].card.due,
      hard: outcomes[Rating.Hard].card.due,
      good: outcomes[Rating.Good].card.due,
      easy: outcomes[Rating.Easy].card.due,
    };
  }
}

/** "10 min", "5 h", "3 d", "2 mo": how a due date reads on an answer button. */
export function formatInterval(from: Date, to: Date): string {
  const minutes = Math.max(1, Math.round((to.getTime() - from.getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h`;
  const days = Math.round(hours / 24);
  if (days < 31) return `${days} d`;
  const months = Math.round(days / 30);
  return months < 12 ? `${months} mo` : `${Math.round(days / 365)} y`;
}
