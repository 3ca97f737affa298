import { activeDates, streakDays } from './streak';

const at = (iso: string) => new Date(iso);

describe('streak', () => {
  it('counts consecutive active days up to today, or up to yesterday while today is still open', () => {
    const active = new Set(['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21']);
    expect(streakDays(active, '2026-11-21')).toBe(4);
    expect(streakDays(active, '2026-11-22')).toBe(4);
    expect(streakDays(active, '2026-11-23')).toBe(0);
    expect(streakDays(new Set(['2026-11-20', '2026-11-22']), '2026-11-22')).toBe(1);
    expect(streakDays(new Set(), '2026-11-22')).toBe(0);
  });

  it("cuts days at the member's midnight, not UTC's", () => {
    // 23:30 UTC on the 20th and 00:30 UTC on the 22nd: two days apart in UTC, but in Tokyo (UTC+9) they
    // fall on the 21st and the 22nd, consecutive days.
    const heard = [at('2026-11-20T23:30:00Z'), at('2026-11-22T00:30:00Z')];
    expect(streakDays(activeDates(heard, null), '2026-11-22')).toBe(1);
    expect(streakDays(activeDates(heard, 'Asia/Tokyo'), '2026-11-22')).toBe(2);
    // In Los Angeles (UTC-8) the same instants are the 20th and the 21st: with today the 22nd, the streak
    // that ran to yesterday still stands.
    expect([...activeDates(heard, 'America/Los_Angeles')]).toEqual(['2026-11-20', '2026-11-21']);
    expect(streakDays(activeDates(heard, 'America/Los_Angeles'), '2026-11-22')).toBe(2);
  });

  it('spans a summer-time change', () => {
    // Paris moves to summer time on 29 March 2026: that day has 23 hours.
    const heard = [at('2026-03-28T22:30:00Z'), at('2026-03-29T21:59:00Z'), at('2026-03-29T22:00:00Z')];
    expect([...activeDates(heard, 'Europe/Paris')]).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(streakDays(activeDates(heard, 'Europe/Paris'), '2026-03-30')).toBe(3);
  });
});
