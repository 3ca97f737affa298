/**
 * Where the reader is in a book. A member's place is saved on the server (any device resumes there); a
 * visitor's, in chapter 1 only, stays in this browser until they sign in, when it is carried over.
 */
import { api, ApiError } from '../api';
import { getToken, getUser } from '../session';
import { onLeave } from './on-leave';
import { keepVisitorPlaces, visitorPlaces } from './visitor-places';

export interface Place {
  chapter_no: number;
  position: number;
  speed?: number;
  /** When the server saved it (ISO 8601); absent for a visitor's place. */
  updated_at?: string;
}

/** `passive`: asked by a page the reader only looks at (the book page), where a 401 must not sign out. */
export async function loadPlace(bookCode: string, { passive = false } = {}): Promise<Place | null> {
  if (!getToken()) return visitorPlaces()[bookCode] ?? null;
  try {
    return (await api<{ data: Place }>(`user/progress/${encodeURIComponent(bookCode)}`, { passive })).data;
  } catch {
    return null;
  }
}

/**
 * Where the reader opens a chapter: at the phrase the address names (#p-N), else at the place saved in
 * this chapter, else at none (0). With it, the speed saved with that place when it is newer than this
 * browser's: a member's speed follows them from device to device. The reader's chapter is read once the
 * place has come, as it stands then.
 */
export async function openingPlace(reader: {
  readonly book: string;
  readonly chapterNo: number;
}): Promise<{ position: number; speed: number | undefined }> {
  const fromHash = /^#p-(\d+)$/.exec(location.hash);
  const place = await loadPlace(reader.book);
  const local = rememberedSpeed(reader.book);
  const newer = !!place?.speed && (!local || (place.updated_at !== undefined && place.updated_at > local.at));
  const position = fromHash
    ? Number(fromHash[1])
    : place?.chapter_no === reader.chapterNo
      ? place.position
      : 0;
  return { position, speed: newer ? place?.speed : undefined };
}

/** A member's place not sent yet, with the time the learner reached it. */
interface PlaceSent extends Place {
  book_code: string;
  at: string;
}

/**
 * The place waiting to go, and whose it is: after a switch of account in another tab (the token and the
 * user in localStorage are shared), it is dropped rather than sent as the other member's.
 */
let waiting: { member: number; body: PlaceSent } | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let listening = false;

/**
 * Saves the place the learner moved to (not one the reader opens at: that one is saved already, and
 * saving it again would stamp it with a new time). A visitor's is written in this browser at once. A
 * member's goes to the server a moment after the last move, so that skipping through phrases sends one
 * call, or at once when the page is hidden or left; offline, it goes to the device's queue at once, where
 * a page closed a moment later cannot lose it (docs/offline.md, "Your place when you leave").
 */
export function savePlace(bookCode: string, place: Place): void {
  if (!getToken()) {
    keepVisitorPlaces({ ...visitorPlaces(), [bookCode]: place });
    return;
  }
  const member = getUser()?.id;
  if (member === undefined) return;
  if (!listening) {
    listening = true;
    onLeave(sendWaiting);
  }
  // With the time it was reached: however late it arrives (at the page's exit, from the queue), the
  // server keeps a newer place it already holds.
  waiting = { member, body: { book_code: bookCode, ...place, at: new Date().toISOString() } };
  clearTimeout(timer);
  if (navigator.onLine) timer = setTimeout(sendWaiting, 800);
  else sendWaiting();
}

/**
 * Sends the waiting place, once: fetch with `keepalive` leaves synchronously and outlives the page. A
 * place that cannot reach the server (offline, or the server unreachable) goes to the device's queue.
 */
function sendWaiting(): void {
  clearTimeout(timer);
  const place = waiting;
  waiting = undefined;
  // Another member signed in meanwhile (in another tab): the place is not theirs to send.
  if (!place || !getToken() || getUser()?.id !== place.member) return;
  if (!navigator.onLine) return keepForLater(place.member, place.body);
  api('user/progress', { method: 'PUT', body: place.body, keepalive: true }).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 0) keepForLater(place.member, place.body);
  });
}

function keepForLater(member: number, body: PlaceSent): void {
  // The queue is loaded only once a member's place is saved: pages that only read places (the book page)
  // go without it. It keeps one place per book, the newest (queue.ts). Where the browser keeps nothing
  // (plain HTTP), the place is lost, as it always was.
  void import('../offline/queue')
    .then(({ queueAction }) => queueAction(member, 'progress', 'user/progress', 'PUT', body))
    .catch(() => undefined);
}

/**
 * After signing in: the places a visitor reached go to the account, then leave the browser. A book the
 * account has already started elsewhere keeps its place: that one is the member's.
 */
export async function carryOverPlaces(): Promise<void> {
  const places = Object.entries(visitorPlaces());
  if (places.length === 0) return;
  const { data } = await api<{ data: Array<{ book_code: string }> }>('user/progress');
  const started = new Set(data.map((book) => book.book_code));
  for (const [bookCode, place] of places) {
    if (started.has(bookCode)) continue;
    await api('user/progress', { method: 'PUT', body: { book_code: bookCode, ...place } }).catch(
      () => undefined,
    );
  }
  keepVisitorPlaces({});
}

const SPEED_KEY = 'reading-speed';

interface KeptSpeed {
  speed: number;
  /** When it was chosen (ISO 8601), to tell it from a newer one saved on another device. */
  at: string;
}

function keptSpeeds(): Record<string, KeptSpeed> {
  try {
    return JSON.parse(localStorage.getItem(SPEED_KEY) ?? '{}') as Record<string, KeptSpeed>;
  } catch {
    return {};
  }
}

/** The speed per book, remembered in the browser at once (the server keeps it too, for members). */
export function rememberedSpeed(bookCode: string): KeptSpeed | null {
  const kept = keptSpeeds()[bookCode];
  return kept && typeof kept.speed === 'number' && typeof kept.at === 'string' ? kept : null;
}

export function rememberSpeed(bookCode: string, speed: number): void {
  try {
    localStorage.setItem(
      SPEED_KEY,
      JSON.stringify({ ...keptSpeeds(), [bookCode]: { speed, at: new Date().toISOString() } }),
    );
  } catch {
    // Not remembered.
  }
}
