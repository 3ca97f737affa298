/**
 * What a member does without a connection, kept on the device and sent later (docs/offline.md, "Actions
 * sent later"): reading progress, listening reports, saved words and review answers. Each action is sent
 * at once when it can be; when the server cannot be reached it waits in IndexedDB (store.ts) with the
 * time it happened, which the server accepts (`at`, `reviewed_at`, a report's own time). Places and
 * listening reports made while the browser says it is offline come here at once, without a try
 * (reading-progress.ts, listening-reports.ts). Back online the queue goes out in order, one action at a
 * time, by one tab at a time (a Web Lock), each removed as soon as the server took it, so nothing goes
 * twice. A 429 waits for its Retry-After; a 409 (a card answered on another device meanwhile) and any
 * other refusal drop the action; refused review answers are counted for the pages to say. Nothing is
 * queued where the browser cannot keep it (plain HTTP): the action fails as it always did.
 */
import { api, ApiError } from '../api';
import { getToken, getUser } from '../session';
import { syncKey } from './names';
import { addOver, entries, get, offlineSupported, put, remove } from './store';

export type ActionKind = 'progress' | 'listening' | 'word' | 'review' | 'status';

export interface QueuedAction {
  member: number;
  kind: ActionKind;
  method: 'POST' | 'PUT';
  path: string;
  body: unknown;
  queuedAt: number;
}

/** A member's sync, kept per member (`synced:{id}`): another member on the browser has their own. */
export interface SyncState {
  /** When the queue last emptied (milliseconds since 1970). */
  at: number;
  /** Review answers the server refused as already answered elsewhere, since the learner last saw them. */
  notApplied: number;
  /** Review answers the server refused for their time (a device clock far ahead, or over 30 days old). */
  refused?: number;
}

/** What a queued place carries (reading-progress.ts): the book, and when the learner was there. */
interface PlaceBody {
  book_code: string;
  at: string;
}

/** Listening events per queued report, at most: what the server takes in one report. */
const MAX_EVENTS = 200;

/** Longest wait a Retry-After may ask for before the queue gives up until the next time it is online. */
const MAX_WAIT_MS = 60_000;

/**
 * Sends an action now, or queues it when the server cannot be reached. Answers the server's answer, or
 * null when queued; any refusal is thrown as usual.
 */
export async function sendOrQueue<T>(
  kind: ActionKind,
  path: string,
  method: 'POST' | 'PUT',
  body: unknown,
  /** What to keep when queued instead, e.g. with the time it happened (`reviewed_at`). */
  queuedBody: unknown = body,
): Promise<T | null> {
  try {
    return await api<T>(path, { method, body });
  } catch (error) {
    const user = getUser();
    // Only where the device can keep it and send it later (not on plain HTTP, where nothing flushes).
    const queueable = offlineSupported() && getToken() && user;
    if (!(error instanceof ApiError) || error.status !== 0 || !queueable) throw error;
    await queueAction(user.id, kind, path, method, queuedBody);
    return null;
  }
}

/** Keeps an action the server could not be reached for, to send once back online. */
export async function queueAction(
  member: number,
  kind: ActionKind,
  path: string,
  method: 'POST' | 'PUT',
  body: unknown,
): Promise<void> {
  if (!offlineSupported()) throw new Error('This browser keeps nothing for later here.');
  const action: QueuedAction = { member, kind, method, path, body, queuedAt: Date.now() };
  // A place takes the place of the one queued for the same book (unless that one is newer): an hour
  // offline sends the last place once, not every phrase passed. The old one is deleted, not rewritten, so
  // a queue being sent meanwhile (which removes what it sent by key) cannot delete the new one.
  if (kind === 'progress') {
    const place = body as PlaceBody;
    return addOver<QueuedAction>('queue', action, (held) => {
      const other = held.body as PlaceBody;
      if (held.kind !== 'progress' || held.member !== member || other.book_code !== place.book_code) return;
      return Date.parse(other.at) > Date.parse(place.at) ? 'newer' : 'older';
    });
  }
  // Listening events join the last queued report while it has room: an hour offline is a few requests
  // when sent, not one per phrase. A queued place in between does not count: it goes to the end at every
  // move, and when it is sent against the other actions does not matter.
  if (kind === 'listening') {
    const last = (await entries<QueuedAction>('queue'))
      .filter(({ value }) => value.kind !== 'progress')
      .at(-1);
    const events = (body as { events: unknown[] }).events;
    const held =
      last?.value.kind === 'listening' && last.value.member === member
        ? (last.value.body as { events: unknown[] }).events
        : null;
    if (last && held && held.length + events.length <= MAX_EVENTS) {
      await put(
        'queue',
        { ...last.value, body: { events: [...held, ...events] } } satisfies QueuedAction,
        last.key,
      );
      return;
    }
  }
  await put('queue', action);
}

export async function pendingActions(kind?: ActionKind): Promise<QueuedAction[]> {
  const member = getUser()?.id;
  return (await entries<QueuedAction>('queue'))
    .map(({ value }) => value)
    .filter((action) => action.member === member && (!kind || action.kind === kind));
}

/** The signed-in member's sync, if any. */
export async function syncState(): Promise<SyncState | undefined> {
  const member = getUser()?.id;
  return member === undefined ? undefined : get<SyncState>('state', syncKey(member));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function flushNow(): Promise<void> {
  const member = getUser()?.id;
  if (!getToken() || member === undefined) return;
  let notApplied = 0;
  let refused = 0;
  for (const { key, value: action } of await entries<QueuedAction>('queue')) {
    if (action.member !== member) continue;
    for (;;) {
      try {
        await api(action.path, { method: action.method, body: action.body });
        break;
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 0 || error.status === 401 || error.status >= 500)
          return; // Still offline, signed out, or the server is in trouble: later.
        if (error.status === 429) {
          const wait = (error.retryAfter ?? 5) * 1000;
          if (wait > MAX_WAIT_MS) return;
          await sleep(wait);
          continue;
        }
        if (action.kind === 'review' && error.status === 409) notApplied++;
        else if (action.kind === 'review' && error.status === 422) refused++;
        break; // Refused for good: dropped.
      }
    }
    await remove('queue', key);
  }
  const previous = await syncState();
  await put(
    'state',
    {
      at: Date.now(),
      notApplied: (previous?.notApplied ?? 0) + notApplied,
      refused: (previous?.refused ?? 0) + refused,
    } satisfies SyncState,
    syncKey(member),
  );
  dispatchEvent(new Event(SYNCED));
}

/** Said on the window when the queue has reached the server (DeviceNotice redraws). */
export const SYNCED = 'lingonovel:synced';

let flushing: Promise<void> | undefined;

/** Sends what waits, once per tab at a time and, where the browser has Web Locks, once per browser. */
export function flushQueue(): Promise<void> {
  if (!flushing) {
    const run: Promise<void> = navigator.locks
      ? navigator.locks.request('lingonovel-queue', () => flushNow()).then(() => undefined)
      : flushNow();
    flushing = run.finally(() => (flushing = undefined));
  }
  return flushing;
}

/** The learner has seen how many answers were not applied or refused: the counts start again. */
export async function acknowledgeNotApplied(): Promise<void> {
  const member = getUser()?.id;
  const state = await syncState();
  if (state && member !== undefined)
    await put('state', { ...state, notApplied: 0, refused: 0 } satisfies SyncState, syncKey(member));
}
