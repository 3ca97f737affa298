import { Rating } from 'ts-fsrs';
import { formatInterval, newCard, Scheduler, type CardColumns } from './scheduler';

const NOW = new Date('2026-11-22T10:00:00Z');
const fresh = (): CardColumns => newCard(NOW);

describe(Scheduler.name, () => {
  const scheduler = new Scheduler(false);

  it('schedules a new card: Again within minutes, Good later, Easy later still', () => {
    const due = (rating: Rating.Again | Rating.Hard | Rating.Good | Rating.Easy) =>
      scheduler.answer(fresh(), rating, NOW).card.due.getTime();
    expect(due(Rating.Again)).toBeLessThan(due(Rating.Good));
    expect(due(Rating.Good)).toBeLessThan(due(Rating.Easy));
    expect(due(Rating.Again) - NOW.getTime()).toBeLessThan(24 * 3600_000);
  });

  it('brings a forgotten review card back the same day, counting the lapse', () => {
    const learnt = scheduler.answer(fresh(), Rating.Easy, NOW).card;
    const later = new Date(learnt.due.getTime());
    const forgotten = scheduler.answer(learnt, Rating.Again, later).card;
    expect(forgotten.lapses).toBe(1);
    expect(forgotten.due.getTime() - later.getTime()).toBeLessThan(24 * 3600_000);
  });

  it('is repeatable with the fuzz off', () => {
    expect(scheduler.answer(fresh(), Rating.Good, NOW).card).toEqual(
      scheduler.answer(fresh(), Rating.Good, NOW).card,
    );
    expect(scheduler.preview(fresh(), NOW).good).toEqual(
      scheduler.answer(fresh(), Rating.Good, NOW).card.due,
    );
  });
});

describe('a member’s own parameters', () => {
  it('change the intervals: a learner whose memory FSRS finds stronger waits longer for the same answer', () => {
    const defaults = new Scheduler(false);
    // FSRS-6's defaults with the first four (a new card's stability after each answer) multiplied by 4:
    // what the optimiser gives a learner who remembers well.
    const strong = new Scheduler(
      false,
      [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614,
        0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
      ].map((w, i) => (i < 4 ? w * 4 : w)),
    );
    const good = (scheduler: Scheduler) => {
      const first = scheduler.answer(fresh(), Rating.Good, NOW).card;
      const second = scheduler.answer(first, Rating.Good, first.due).card;
      return second.due.getTime() - first.due.getTime();
    };
    expect(good(strong)).toBeGreaterThan(good(defaults) * 1.5);
    expect(strong.preview(fresh(), NOW).easy.getTime()).toBeGreaterThan(
      defaults.preview(fresh(), NOW).easy.getTime(),
    );
  });
});

describe(formatInterval.name, () => {
  it.each([
    [30_000, '1 min'],
    [10 * 60_000, '10 min'],
    [5 * 3600_000, '5 h'],
    [3 * 86400_000, '3 d'],
    [60 * 86400_000, '2 mo'],
    [800 * 86400_000, '2 y'],
  ])('%p ms reads %p', (ms, text) => {
    expect(formatInterval(NOW, new Date(NOW.getTime() + ms))).toBe(text);
  });
});
