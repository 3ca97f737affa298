import { api } from './api';

/**
 * Days on the server (the new cards of a day, streaks, the chart) are the member's days: the site tells
 * the server the browser's time zone whenever the profile's differs. Best effort: without it, UTC days.
 */
export function syncTimeZone(saved: string | null | undefined): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone || zone === saved) return;
  api('user/profile', { method: 'PUT', body: { time_zone: zone } }).catch(() => undefined);
}
