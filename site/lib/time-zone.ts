import { api } from './api';

/**
 * Days on the server (the new cards of a day, streaks, the chart) are the member's days: the site tells
 * the server the browser's time zone whenever the profile's differs. Best effort: without it, UTC days.
 */
export async function syncTimeZone(saved: string | null | undefined): Promise<void> {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  // The server keeps its own spelling of a zone (Asia/Calcutta for Asia/Kolkata, say): compare them as
  // this browser spells both.
  if (!zone || (saved && spelling(saved) === zone)) return;
  await api('user/profile', { method: 'PUT', body: { time_zone: zone } }).catch(() => undefined);
}

function spelling(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
