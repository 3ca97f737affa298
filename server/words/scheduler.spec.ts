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
