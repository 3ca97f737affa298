/**
 * The only place the browser calls `fetch` (CONVENTIONS.md, Site). It sends JSON, adds the bearer token
 * when one is stored, signs the browser out on a 401, and turns every failure into an ApiError.
 */
import { clearSession, getToken } from './session';

export const API_BASE = '/api/v1';

/** docs/product.md section 8: what any failure other than a 422 shows. */
export const GENERIC_ERROR = 'Something went wrong. Please try again later.';

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    /** The HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    message: string,
    readonly fieldErrors: FieldErrors = {},
    /** A 429's Retry-After, in seconds. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The first message for a field, as docs/product.md section 5 shows them. */
  fieldError(field: string): string | undefined {
    return this.fieldErrors[field]?.[0];
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Lets the request outlive the page (a tab being closed), as sendBeacon would, but with the token. */
  keepalive?: boolean;
  /**
   * A look-up the user did not ask for (a public page asking for the plan): a 401 only throws, and the
   * reader with an expired session stays on the page, as a visitor, instead of being sent to sign in.
   */
  passive?: boolean;
}

export async function api<T>(
  path: string,
  { method = 'GET', body, signal, keepalive, passive = false }: RequestOptions = {},
): Promise<T> {
  const token = getToken();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path.replace(/^\//, '')}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
      keepalive,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, GENERIC_ERROR);
  }

  const payload = await readJson(response);
  if (response.ok) return payload as T;

  // A 401 on a call that carried a token means the session is dead (expired, or a password changed
  // elsewhere). A 401 without a token has no session to end, so the page keeps what the user typed.
  if (response.status === 401 && token && !passive) signOut();
  throw toApiError(response.status, payload, response.headers.get('retry-after'));
}

/** Ends the session and goes to the sign-in page, coming back here afterwards. */
export function signOut(): void {
  clearSession();
  // The service worker stops serving this member's downloads before the next page records anyone.
  navigator.serviceWorker?.controller?.postMessage({ type: 'SIGNED_OUT' });
  const here = window.location.pathname + window.location.search;
  window.location.assign(here === '/login' ? '/login' : `/login?next=${encodeURIComponent(here)}`);
}

/**
 * The message a form shows for a failed call (docs/product.md section 8): the server's own for a 422, and for a 413
 * (a file over its size limit) and a 429, which explain themselves; the generic one otherwise.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError && [413, 422, 429].includes(error.status)) return error.message;
  return GENERIC_ERROR;
}

/**
 * Downloads a file the server only gives with the token (a link cannot carry it): fetched here, then saved
 * through a temporary object URL under the server's file name.
 */
export async function apiDownload(path: string, fallbackName: string): Promise<void> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path.replace(/^\//, '')}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, GENERIC_ERROR);
  }
  if (!response.ok) {
    if (response.status === 401 && token) signOut();
    throw toApiError(response.status, await readJson(response));
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name ?? fallbackName });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * A GET of our own origin whose answer is kept on the device as it came (a download, docs/offline.md):
 * the raw Response, with the token when `withToken`. Fails as api() does: an ApiError, status 0 when the
 * server cannot be reached, and a 401 with a token ends the session.
 */
export async function fetchForDevice(
  url: string,
  {
    signal,
    withToken = false,
    method = 'GET',
  }: { signal?: AbortSignal; withToken?: boolean; method?: 'GET' | 'HEAD' } = {},
): Promise<Response> {
  const token = withToken ? getToken() : null;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, GENERIC_ERROR);
  }
  if (response.ok) return response;
  if (response.status === 401 && token) signOut();
  throw toApiError(response.status, await readJson(response));
}

/** A download that is being made (docs/formats.md: the audiobook's 202), or one ready to be saved. */
export type DownloadReadiness = { ready: true } | { ready: false; retryAfter: number; message?: string };

/**
 * Asks whether a file download is ready without taking its bytes: one byte of it (`Range: bytes=0-0`),
 * the body then dropped. A 202 is "being made, ask again in Retry-After seconds", with the server's
 * message (a first build, or a failed one waiting to be tried again); a failure throws as api() does.
 * With `withToken`, the member's bearer token goes along. It asks for JSON: the server keeps its HTML
 * answer for a browser that navigates to the address.
 */
export async function downloadReadiness(
  path: string,
  { withToken = false, signal }: { withToken?: boolean; signal?: AbortSignal } = {},
): Promise<DownloadReadiness> {
  const token = withToken ? getToken() : null;
  const headers: Record<string, string> = { Range: 'bytes=0-0', Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, { headers, credentials: 'same-origin', cache: 'no-store', signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, GENERIC_ERROR);
  }
  if (response.status === 202) {
    const body = (await readJson(response)) as { message?: unknown } | null;
    const seconds = Number(response.headers.get('retry-after'));
    return {
      ready: false,
      retryAfter: Number.isFinite(seconds) && seconds > 0 ? seconds : 5,
      message: typeof body?.message === 'string' && body.message ? body.message : undefined,
    };
  }
  if (response.ok) {
    await response.body?.cancel();
    return { ready: true };
  }
  if (response.status === 401 && token) signOut();
  throw toApiError(response.status, await readJson(response), response.headers.get('retry-after'));
}

/**
 * One of the site's own pages, as HTML, for a page that updates in place (/books): its final URL (after
 * the server's redirect to the canonical one) and its text; null when it answers anything but a 200 (the
 * caller then lets the browser load it, so a 404 shows as usual). Public pages only: it sends no token.
 */
export async function pageHtml(
  url: string,
  signal?: AbortSignal,
): Promise<{ url: string; html: string } | null> {
  const response = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin', signal });
  return response.ok ? { url: response.url, html: await response.text() } : null;
}

export interface UploadOptions {
  method?: 'POST' | 'PUT';
  /** Called with the share of the body sent so far, from 0 to 100. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/**
 * Sends a multipart form (files included) and reports the upload's progress, which `fetch` cannot do, so
 * this one call uses XMLHttpRequest. It answers and fails exactly as `api()` does.
 */
export function apiUpload<T>(
  path: string,
  form: FormData,
  { method = 'POST', onProgress, signal }: UploadOptions = {},
): Promise<T> {
  const token = getToken();
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, `${API_BASE}/${path.replace(/^\//, '')}`);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.responseType = 'text';
    if (onProgress) {
      onProgress(0);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) {
          onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
        }
      };
      // Small bodies may report no progress at all before they are sent.
      xhr.upload.onload = () => onProgress(100);
    }
    xhr.onload = () => {
      const payload = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(payload as T);
        return;
      }
      if (xhr.status === 401 && token) signOut();
      reject(toApiError(xhr.status, payload));
    };
    xhr.onerror = () => reject(new ApiError(0, GENERIC_ERROR));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    if (signal) {
      if (signal.aborted) {
        reject(new DOMException('The upload was cancelled.', 'AbortError'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** Anything a call can throw, as an ApiError. */
export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, GENERIC_ERROR);
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    // An empty body, or a proxy's HTML error page.
    return null;
  }
}

function toApiError(status: number, payload: unknown, retryAfter?: string | null): ApiError {
  const body = (payload && typeof payload === 'object' ? payload : {}) as {
    message?: unknown;
    errors?: unknown;
  };
  const message = typeof body.message === 'string' && body.message ? body.message : GENERIC_ERROR;
  const fieldErrors: FieldErrors = {};
  if (body.errors && typeof body.errors === 'object') {
    for (const [field, list] of Object.entries(body.errors)) {
      const messages = (Array.isArray(list) ? list : [list]).filter(
        (m): m is string => typeof m === 'string',
      );
      if (messages.length) fieldErrors[field] = messages;
    }
  }
  const seconds = Number(retryAfter);
  return new ApiError(status, message, fieldErrors, retryAfter && seconds >= 0 ? seconds : undefined);
}
