import { dateFromDb } from './db-dates';

describe('dateFromDb', () => {
  it("reads SQLite's zone-less text as UTC, whatever the server's zone", () => {
    expect(dateFromDb('2026-11-22 21:30:00.000').toISOString()).toBe('2026-11-22T21:30:00.000Z');
    expect(dateFromDb('2026-11-22T21:30:00.000Z').toISOString()).toBe('2026-11-22T21:30:00.000Z');
    expect(dateFromDb('2026-11-22 23:30:00+02:00').toISOString()).toBe('2026-11-22T21:30:00.000Z');
    const date = new Date();
    expect(dateFromDb(date)).toBe(date);
  });
});
