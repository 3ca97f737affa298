/**
 * Tells the server which phrases a member heard to their end, for their stats and the authors' insights.
 * Events wait in a small queue and go in batches: after a few phrases, after a short while, and when the
 * page is hidden or closed (on-leave.ts). `sendBeacon` cannot carry the token, so batches use fetch with
 * `keepalive`, which outlives the tab. Each event has its own UUID: a batch sent twice counts once, so a
 * failed batch is simply sent again with the next one.
 */
import { api, ApiError } from '../api';
import { queueAction } from '../offline/queue';
import { offlineSupported } from '../offline/store';
import { getToken, getUser } from '../session';
import { onLeave } from './on-leave';

interface ListeningEvent {
  id: string;
  phrase_id: number;
  ms: number;
  at: string;
}

/** Sent when this many are waiting: a lost batch (a crash, no network) costs at most a few phrases. */
const BATCH = 5;
const DELAY_MS = 15_000;
/** What the server takes at once. */
const MAX_EVENTS = 200;

const queue: ListeningEvent[] = [];
/** Whose events the queue holds: after a switch of account in another tab they are not sent as the other's. */
let owner: number | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let sending = false;
let listening = false;

/** Records one phrase heard to its end (visitors' plays are not reported: they have no account). */
export function reportHeard(phraseId: number, ms: number): void {
  const user = getUser();
  if (!getToken() || !user || !phraseId || !Number.isFinite(ms) || ms < 0) return;
  listenForExit();
  if (owner !== user.id) queue.length = 0;
  owner = user.id;
  queue.push({
    id: crypto.randomUUID(),
    phrase_id: phraseId,
    ms: Math.round(ms),
    at: new Date().toISOString(),
  });
  // Offline, at once: the event then moves to the device's queue, which a closed page cannot lose.
  if (queue.length >= BATCH || !navigator.onLine) void flush();
  else {
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), DELAY_MS);
  }
}

async function flush(): Promise<void> {
  clearTimeout(timer);
  if (sending || queue.length === 0 || !getToken()) return;
  if (getUser()?.id !== owner) {
    queue.length = 0;
    return;
  }
  sending = true;
  const batch = queue.slice(0, MAX_EVENTS);
  try {
    await api('user/listening', { method: 'POST', body: { events: batch }, keepalive: true });
    queue.splice(0, batch.length);
  } catch (error) {
    // The server refused these events for good (a 4xx other than a rate limit): drop them. Unreachable
    // (offline): they move to the device's queue, which outlives the page (offline/queue.ts). Otherwise
    // they stay here and go with the next batch; their ids keep them from counting twice.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429)
      queue.splice(0, batch.length);
    else if (error instanceof ApiError && error.status === 0 && owner !== undefined && offlineSupported()) {
      queue.splice(0, batch.length);
      await queueAction(owner, 'listening', 'user/listening', 'POST', { events: batch }).catch(
        () => undefined,
      );
    }
  } finally {
    sending = false;
    // Events heard while this batch was on its way wait for the next one.
    if (queue.length) timer = setTimeout(() => void flush(), DELAY_MS);
  }
}

function listenForExit(): void {
  if (listening) return;
  listening = true;
  onLeave(() => void flush());
}
