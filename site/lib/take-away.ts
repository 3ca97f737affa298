/**
 * "Take it with you" (docs/formats.md, Downloads): a book's read-along EPUB and its audiobook (M4B),
 * saved by the browser itself, so a 200 MB audiobook streams to disk and never sits in the page.
 *
 * A link cannot carry the session token: a signed-in reader's button asks the server for a short-lived
 * signed link first (`POST downloads/{code}/link`), a visitor's uses the plain address, which gives the
 * sample. The audiobook is made on its first request: the server answers 202 with Retry-After meanwhile,
 * so it is asked for (one byte of it) until it is ready, and only then saved.
 */
import { api, ApiError, downloadReadiness, errorMessage } from './api';
import { getToken } from './session';

export type TakeAwayFormat = 'epub' | 'audiobook';

/** How many times the audiobook is asked for before the button gives up (about 10 × Retry-After). */
export const MAX_TRIES = 10;
/** A Retry-After longer than this is waited in several turns, so the message stays current. */
const LONGEST_WAIT_S = 30;

export const downloadPath = (code: string, format: TakeAwayFormat) =>
  `/api/v1/downloads/${encodeURIComponent(code)}/${format}`;

export const subtitlesPath = (code: string, chapterNo: number, kind: 'vtt' | 'lrc') =>
  `/api/v1/downloads/${encodeURIComponent(code)}/chapter/${chapterNo}/subtitles.${kind}`;

export const waitingMessage = (seconds: number) =>
  `Your audiobook is being made… (about ${Math.round(seconds)} s)`;

export const GAVE_UP =
  'Your audiobook is still being made. Please try again in a few minutes: it will be ready then.';

/** The message a download button shows for a failure: the server's own where it explains itself. */
export function takeAwayError(error: unknown): string {
  if (error instanceof ApiError && [401, 403, 404, 429, 503].includes(error.status)) return error.message;
  return errorMessage(error);
}

/** The address to save from: a signed link for whoever is signed in here, else the visitor's sample. */
async function addressFor(code: string, format: TakeAwayFormat): Promise<string> {
  if (!getToken()) return downloadPath(code, format);
  const { data } = await api<{ data: { url: string; expires_at: string } }>(
    `downloads/${encodeURIComponent(code)}/link`,
    { method: 'POST', body: { format } },
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

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });

export interface TakeAwayOptions {
  /** Called while the audiobook is being made, with the seconds the server asked to wait. */
  onWait?: (seconds: number) => void;
  signal?: AbortSignal;
}

/**
 * Downloads a book in a format; resolves once the browser has been told to save it. Throws an ApiError
 * (or, after MAX_TRIES turns of 202, one saying to come back later).
 */
export async function takeAway(
  code: string,
  format: TakeAwayFormat,
  { onWait, signal }: TakeAwayOptions = {},
): Promise<void> {
  if (format === 'audiobook') {
    // Asked with the token on the plain address, so that a signed link is only made once there is a
    // file to follow it to (it lasts 5 minutes).
    for (let attempt = 1; ; attempt++) {
      const answer = await downloadReadiness(downloadPath(code, format), { withToken: true, signal });
      if (answer.ready) break;
      if (attempt >= MAX_TRIES) throw new ApiError(503, GAVE_UP);
      const seconds = Math.min(answer.retryAfter, LONGEST_WAIT_S);
      onWait?.(seconds);
      await pause(seconds * 1000, signal);
    }
  }
  saveFrom(await addressFor(code, format));
}
