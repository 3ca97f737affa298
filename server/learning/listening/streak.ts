import { addDays, localDate } from '../../platform/common/time-zone';

/** The member's dates on which something happened. */
export function activeDates(instants: Date[], timeZone: string | null): Set<string> {
  return new Set(instants.map((instant) => localDate(instant, timeZone)));
}

/**
 * Consecutive active days up to today. A streak stays alive through today until the day is over, so one
 * that ran to yesterday still counts when nothing has happened yet today.
 */
export function streakDays(active: Set<string>, today: string): number {
  let day = active.has(today) ? today : addDays(today, -1);
  let count = 0;
  while (active.has(day)) {
    count++;
    day = addDays(day, -1);
  }
  return count;
}
