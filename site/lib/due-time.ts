/**
 * When a card is due, as a person says it: "now", "in 10 minutes", "in 5 hours", "tomorrow", "in 3
 * days", and a date beyond a week ("on Mar 12, 2026"). The words are English, as the rest of the site;
 * the date follows the browser's own format.
 */
const words = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Midnight of a date's day, in the browser's time zone. */
const startOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());

export function dueIn(iso: string, now = new Date()): string {
  const due = new Date(iso);
  const ms = due.getTime() - now.getTime();
  if (ms <= 0) return 'now';
  if (ms < HOUR) return words.format(Math.max(1, Math.round(ms / MINUTE)), 'minute');
  // Whole calendar days apart: rounded, since a day across a change of clocks lasts 23 or 25 hours.
  const days = Math.round((startOfDay(due).getTime() - startOfDay(now).getTime()) / (24 * HOUR));
  if (days === 0) return words.format(Math.round(ms / HOUR), 'hour');
  if (days <= 7) return words.format(days, 'day');
  return `on ${due.toLocaleDateString(undefined, { dateStyle: 'medium' })}`;
}
