import { addDays, canonicalTimeZone, localDate, startOfDate } from './time-zone';

describe('time zones', () => {
  it('accepts IANA names in their canonical spelling and refuses anything else', () => {
    expect(canonicalTimeZone('Europe/Paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    // ICU's own spelling of a three-part name may be its older alias.
    expect(canonicalTimeZone('America/Argentina/Buenos_Aires')).toMatch(/Buenos_Aires$/);
    for (const bad of ['Mars/Olympus', '+02:00', '', 'Europe/Paris; DROP', '../etc', 'Europe/'.repeat(20)])
      expect(canonicalTimeZone(bad)).toBeNull();
  });

  it("gives the member's date of an instant", () => {
    const instant = new Date('2026-03-01T23:30:00Z');
    expect(localDate(instant, null)).toBe('2026-03-01');
    expect(localDate(instant, 'Europe/Paris')).toBe('2026-03-02');
    expect(localDate(instant, 'America/Los_Angeles')).toBe('2026-03-01');
    expect(localDate(new Date('2026-03-02T07:59:59Z'), 'America/Los_Angeles')).toBe('2026-03-01');
  });

  it('finds the instant a date begins, across summer-time changes', () => {
    expect(startOfDate('2026-03-02', null).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(startOfDate('2026-01-15', 'Europe/Paris').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(startOfDate('2026-07-15', 'Europe/Paris').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    // The days clocks change in Paris (29 March) and New York (8 March) begin before the change.
    expect(startOfDate('2026-03-29', 'Europe/Paris').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDate('2026-03-30', 'Europe/Paris').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfDate('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfDate('2026-11-15', 'Asia/Kolkata').toISOString()).toBe('2026-11-14T18:30:00.000Z');
    // Santiago moves its clocks at midnight: 2026-09-06 starts at 01:00 local time.
    const santiago = startOfDate('2026-09-06', 'America/Santiago');
    expect(localDate(santiago, 'America/Santiago')).toBe('2026-09-06');
    expect(localDate(new Date(santiago.getTime() - 1000), 'America/Santiago')).toBe('2026-09-05');
  });

  it('adds days to a date', () => {
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });
});
