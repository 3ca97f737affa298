/**
 * "Take it with you" (docs/formats.md, Downloads): a book's read-along EPUB and its audiobook (M4B),
 * saved by the browser itself, so a 200 MB audiobook streams to disk and never sits in the page.
 *
 * A link cannot carry the session token: a signed-in reader's button asks the server for a short-lived
 * signed link first (`POST downloads/{code}/link`, which also refuses what cannot be made: a 422 or a
 * 503, shown to the reader), a visitor's uses the plain address, which gives the sample. The audiobook is
 * made on its first request: the server answers 202 with Retry-After and a message meanwhile, so one byte
 * of it is asked for until it is ready, and then it is saved: one click, the reader's, starts both the
 * build and the download (the page shows the wait's progress meanwhile, and leaving it ends the wait).
 */
import { api, ApiError, downloadReadiness, errorMessage } from './api';
import { getToken } from './session';

export type TakeAwayFormat = 'epub' | 'audiobook';

/**
 * How long a wait lasts before the button gives up: the reader waits on the page for the file to come by
 * itself, and the server's estimate is rough (a busy machine builds several times slower), so a wait is
 * bounded by time rather than by a number of turns: at least 10 turns, and at least 5 minutes.
 */
export const MIN_TRIES = 10;
export const GIVE_UP_AFTER_S = 300;
/** A Retry-After longer than this is waited in several turns, so the message stays current. */
const LONGEST_WAIT_S = 30;

export const downloadPath = (code: string, format: TakeAwayFormat) =>
  `/api/v1/downloads/${encodeURIComponent(code)}/${format}`;

export const subtitlesPath = (code: string, chapterNo: number, kind: 'vtt' | 'lrc') =>
  `/api/v1/downloads/${encodeURIComponent(code)}/chapter/${chapterNo}/subtitles.${kind}`;

/** What a wait says when the server gave no message of its own. */
export const waitingMessage = (seconds: number) =>
  `Your audiobook is being made… (about ${Math.round(seconds)} s)`;

export const STARTED = 'Your download should start now.';

/**
 * How far a wait has come, for a progress bar: the seconds since the first 202 against the longest
 * Retry-After heard (the server's estimate of the whole build). Past the estimate the bar has no value
 * (indeterminate) rather than sitting full while the file is not there.
 */
export interface WaitProgress {
  elapsed: number;
  estimate: number;
  /** Between 0 and 1, or null once the estimate has passed. */
  fraction: number | null;
  text: string;
}

export function waitProgress(startedMs: number, estimateS: number, nowMs: number): WaitProgress {
  const elapsed = Math.max(0, Math.floor((nowMs - startedMs) / 1000));
  const estimate = Math.max(1, Math.round(estimateS));
  const over = elapsed >= estimate;
  return {
    elapsed,
    estimate,
    fraction: over ? null : elapsed / estimate,
    text: over
      ? `${elapsed} s: longer than the estimate of ${estimate} s, still being made…`
      : `${elapsed} s of about ${estimate} s`,
  };
}

export const GAVE_UP =
  'Your audiobook is still being made. Please try again in a few minutes: it will be ready then.';

/** The message a download button shows for a failure: the server's own where it explains itself. */
export function takeAwayError(error: unknown): string {
  if (error instanceof ApiError && [401, 403, 404, 422, 429, 503].includes(error.status))
    return error.message;
  return errorMessage(error);
}

/** Whether a failure is only the reader (or the page going away) cancelling: nothing to show. */
export const cancelled = (signal: AbortSignal | undefined) => signal?.aborted === true;

/**
 * The address to save from: a signed link for whoever is signed in here, else the visitor's sample. The
 * link's request is where the server refuses what it cannot make (no ffmpeg, a missing clip).
 */
async function addressFor(
  code: string,
  format: TakeAwayFormat,
  asVisitor: boolean,
  signal?: AbortSignal,
): Promise<string> {
  if (asVisitor || !getToken()) return downloadPath(code, format);
  const { data } = await api<{ data: { url: string; expires_at: string } }>(
    `downloads/${encodeURIComponent(code)}/link`,
    { method: 'POST', body: { format }, signal },
  );
  return data.url;
}

/** Lets the browser save the file itself: a same-origin link with `download` is saved, never opened. */
export function saveFrom(url: string): void {
  const link = Object.assign(document.createElement('a'), { href: url, download: '' });
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

const abortError = (signal: AbortSignal) =>
  signal.reason instanceof Error ? signal.reason : new DOMException('Cancelled.', 'AbortError');

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(abortError(signal));
      },
      { once: true },
    );
  });

/** Resolves once the page is visible: a tab in the background asks the server nothing. */
function whileHidden(signal?: AbortSignal): Promise<void> {
  if (!document.hidden) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      document.removeEventListener('visibilitychange', shown);
      signal?.removeEventListener('abort', aborted);
    };
    const shown = () => {
      if (document.hidden) return;
      done();
      resolve();
    };
    const aborted = () => {
      done();
      reject(abortError(signal!));
    };
    document.addEventListener('visibilitychange', shown);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

export interface TakeAwayOptions {
  /** Called while the audiobook is being made: what to show (the server's message) and its estimate. */
  onWait?: (message: string, seconds: number) => void;
  signal?: AbortSignal;
  /** Sends no token: the sample, for a reader whose session the server no longer knows. */
  asVisitor?: boolean;
}

/**
 * Downloads a book in a format: resolves once the browser has been told to save the file. Throws an
 * ApiError (or, after GIVE_UP_AFTER_S of 202s, one saying to come back later), or the signal's reason
 * once aborted (the page left: nothing is saved then).
 */
export async function takeAway(
  code: string,
  format: TakeAwayFormat,
  { onWait, signal, asVisitor = false }: TakeAwayOptions = {},
): Promise<void> {
  if (format === 'audiobook') {
    // Asked with the token on the plain address right before the link is made, so a signed link (5
    // minutes) is only followed to a file that is there, never to a 202 saved as the audiobook.
    const since = Date.now();
    for (let attempt = 1; ; attempt++) {
      await whileHidden(signal);
      const answer = await downloadReadiness(downloadPath(code, format), { withToken: !asVisitor, signal });
      if (answer.ready) break;
      if (attempt >= MIN_TRIES && Date.now() - since >= GIVE_UP_AFTER_S * 1000)
        throw new ApiError(503, GAVE_UP);
      onWait?.(answer.message ?? waitingMessage(answer.retryAfter), answer.retryAfter);
      await pause(Math.min(answer.retryAfter, LONGEST_WAIT_S) * 1000, signal);
    }
  }
  const url = await addressFor(code, format, asVisitor, signal);
  if (signal?.aborted) throw abortError(signal);
  saveFrom(url);
}
