/**
 * Days as a member lives them. Members may set an IANA time zone; without one, days are UTC days. Dates
 * are handled as 'YYYY-MM-DD' strings, so that no arithmetic depends on the server's own zone.
 */

const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;
const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string): Intl.DateTimeFormat {
  let found = formats.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, found);
  }
  return found;
}

/**
 * The canonical spelling of an IANA zone name ("europe/paris" gives "Europe/Paris"), or null when the
 * name is not one. Offsets such as "+02:00" are refused: they know nothing of summer time.
 */
export function canonicalTimeZone(name: string): string | null {
  if (name.length > 64 || !IANA_NAME.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(instant: Date, timeZone: string) {
  const parts = Object.fromEntries(
    format(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The member's date of an instant, as 'YYYY-MM-DD'. */
export function localDate(instant: Date, timeZone: string | null): string {
  if (!timeZone) return instant.toISOString().slice(0, 10);
  const { year, month, day } = wallClock(instant, timeZone);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(new Date(instant), timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant a member's date begins (where a zone skips midnight, the first instant of that date). */
export function startOfDate(date: string, timeZone: string | null): Date {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  if (!timeZone) return new Date(midnight);
  // Two steps settle the offset, also across a change of offset on that day.
  let guess = midnight - offsetAt(midnight, timeZone);
  guess = midnight - offsetAt(guess, timeZone);
  // A zone that jumps over midnight (a few do, for summer time) has no 00:00: step forward to that date.
  while (localDate(new Date(guess), timeZone) < date) guess += 30 * 60_000;
  return new Date(guess);
}

/** The date `days` after (or before, when negative) a 'YYYY-MM-DD' date. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** 15 minutes: every time zone's offset is a whole number of these, so a day is a run of whole periods. */
export const QUARTER_MS = 15 * 60_000;

/** The 15-minute period since 1970 an instant falls in. */
export const quarterOf = (instant: Date): number => Math.floor(instant.getTime() / QUARTER_MS);

/** The first instant of a 15-minute period. */
export const quarterStart = (quarter: number): Date => new Date(quarter * QUARTER_MS);
