import { dueIn } from './due-time';

describe(dueIn.name, () => {
  // A Monday at 09:00 in the machine's own time zone, as the browser counts days.
  const now = new Date(2026, 2, 9, 9, 0);
  const at = (days: number, hours = 9, minutes = 0) =>
    new Date(2026, 2, 9 + days, hours, minutes).toISOString();

  it('says now for a card already due', () => {
    expect(dueIn(at(0, 9, 0), now)).toBe('now');
    expect(dueIn(at(-3), now)).toBe('now');
  });

  it('counts minutes within the hour, one minute at least, singular when it is one', () => {
    expect(dueIn(at(0, 9, 10), now)).toBe('in 10 minutes');
    expect(dueIn(at(0, 9, 1), now)).toBe('in 1 minute');
    expect(dueIn(new Date(now.getTime() + 5_000).toISOString(), now)).toBe('in 1 minute');
  });

  it('counts hours later the same day', () => {
    expect(dueIn(at(0, 14, 0), now)).toBe('in 5 hours');
    expect(dueIn(at(0, 10, 0), now)).toBe('in 1 hour');
  });

  it('says tomorrow, then days within a week, then a date', () => {
    expect(dueIn(at(1, 8, 0), now)).toBe('tomorrow');
    expect(dueIn(at(1, 23, 0), now)).toBe('tomorrow');
    expect(dueIn(at(3), now)).toBe('in 3 days');
    expect(dueIn(at(7), now)).toBe('in 7 days');
    const later = at(12);
    expect(dueIn(later, now)).toBe(
      `on ${new Date(later).toLocaleDateString(undefined, { dateStyle: 'medium' })}`,
    );
  });

  it('counts calendar days, not 24-hour periods', () => {
    const evening = new Date(2026, 2, 9, 23, 0);
    expect(dueIn(at(1, 7, 0), evening)).toBe('tomorrow');
    expect(dueIn(at(2, 1, 0), evening)).toBe('in 2 days');
  });
});
