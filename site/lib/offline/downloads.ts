/**
 * Chapters kept on the device (docs/offline.md, "Downloads"): a chapter's reader page, its data (also with
 * the learner's translations, translations.ts) and every clip go into Cache Storage (the free cache, or
 * the member's own for a chapter a plan opens), and a record into IndexedDB (store.ts) for /downloads and
 * the table of contents. A download stores each clip as it arrives, so one cut short (a lost connection,
 * Cancel) resumes where it stopped: clips already on the device are not fetched again.
 */
import type { ReaderChapter, TableOfContents } from '../../../server/learning/reading/reading.dto';
import { api, ApiError, fetchForDevice } from '../api';
import { getToken, getUser } from '../session';
import {
  chapterDataPath,
  chapterLookupsKey,
  clipKey,
  FREE_CACHE,
  memberCache,
  PAGES_CACHE,
  readerPath,
  SHELLS,
} from './names';
import { entries, get, offlineSupported, put, remove } from './store';
import { translationsCopy } from './translations';

export interface DownloadRecord {
  book: string;
  bookTitle: string;
  chapter: number;
  title: string;
  /** The member whose cache holds it (a chapter a plan opens), or null for a free chapter. */
  member: number | null;
  /** The keys of its clips in the cache (their paths), to delete what no other chapter uses. */
  clipKeys: string[];
  /**
   * What the download stored, in bytes: its clips, its data (with the translations copy) and its page,
   * measured as they went into the cache. /downloads adds these up for a book and for the device.
   */
  bytes: number;
  /** When it was finished (milliseconds since 1970), or null while it is not complete. */
  at: number | null;
}

export interface DownloadProgress {
  clipsDone: number;
  clipsTotal: number;
  bytes: number;
}

/** Clips fetched at once: enough to fill a connection, few enough to leave the page its own requests. */
const PARALLEL = 4;

/** Whether this browser can keep chapters: a secure context (HTTPS or localhost) with a service worker. */
export function canDownload(): boolean {
  return offlineSupported();
}

function recordKey(member: number | null, book: string, chapter: number): string {
  return `${member ?? 'free'}:${book}:${chapter}`;
}

function cacheOf(record: Pick<DownloadRecord, 'member'>): string {
  return record.member === null ? FREE_CACHE : memberCache(record.member);
}

/** A chapter's data as the server answered it, and what it is. */
async function chapterData(book: string, chapterNo: number, signal: AbortSignal) {
  const response = await fetchForDevice(chapterDataPath(book, chapterNo), { signal, withToken: true });
  const body = await response.text();
  return { chapter: (JSON.parse(body) as { data: ReaderChapter }).data, body };
}

/**
 * Downloads one chapter the learner may read. A chapter they may not read is the server's 403, thrown
 * as an ApiError like any other failure.
 */
export async function downloadChapter(
  book: string,
  chapterNo: number,
  { signal, onProgress }: { signal: AbortSignal; onProgress?: (progress: DownloadProgress) => void },
): Promise<DownloadRecord> {
  // The first download asks the browser not to evict what is kept (it may ask the learner, or decide).
  void navigator.storage?.persist?.().catch(() => false);
  let { chapter, body } = await chapterData(book, chapterNo, signal);
  const user = getUser();
  const member = chapter.free ? null : getToken() && user ? user.id : null;
  if (!chapter.free && member === null) throw new ApiError(403, 'Sign in to download this chapter.');
  const key = recordKey(member, book, chapterNo);
  const previous = await get<DownloadRecord>('downloads', key);
  const cache = await caches.open(cacheOf({ member }));
  const origin = location.origin;
  const clips = [...new Map(chapter.phrases.map((p) => [clipKey(p.audio, origin), p.audio])).entries()];
  const record: DownloadRecord = {
    book,
    bookTitle: chapter.book_title,
    chapter: chapterNo,
    title: chapter.title,
    member,
    clipKeys: clips.map(([path]) => path),
    bytes: previous?.bytes ?? 0,
    // Downloaded again (to refresh it, or to finish it): it stays openable meanwhile if it was complete.
    at: previous?.at ?? null,
  };
  await put('downloads', record, key);

  const progress: DownloadProgress = { clipsDone: 0, clipsTotal: clips.length, bytes: 0 };
  const report = () => onProgress?.({ ...progress });
  report();
  const pending: Array<[string, string]> = [];
  for (const [path, url] of clips) {
    const kept = await cache.match(path);
    if (kept) {
      progress.clipsDone++;
      progress.bytes += await sizeOf(kept);
    } else pending.push([path, url]);
  }
  report();

  // A locked chapter's links expire: a refused clip gets fresh links, once for the whole chapter (the
  // parallel fetches share the one refresh), from a new copy of the data.
  let refresh: Promise<void> | null = null;
  const links = () => new Map(chapter.phrases.map((p) => [clipKey(p.audio, origin), p.audio]));
  let current = links();
  const fetchClip = async (path: string): Promise<void> => {
    let response: Response;
    try {
      response = await fetchForDevice(current.get(path) ?? path, { signal });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 403) || chapter.free) throw error;
      refresh ??= chapterData(book, chapterNo, signal).then((fresh) => {
        ({ chapter, body } = fresh);
        current = links();
      });
      await refresh;
      response = await fetchForDevice(current.get(path) ?? path, { signal });
    }
    // Streamed into the cache as it arrives: never held whole in the page's memory.
    const length = Number(response.headers.get('content-length'));
    await cache.put(path, response);
    const bytes = length || (await cache.match(path).then((kept) => (kept ? sizeOf(kept) : 0)));
    progress.clipsDone++;
    progress.bytes += bytes;
    report();
  };
  const queue = [...pending];
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await fetchClip(next[0]);
    }),
  );

  // The answer with the learner's translations (it is theirs when the chapter is locked: the same cache as
  // the data), then the data (with the newest links), then the page: openable only once complete.
  // Best effort: a chapter without its translations still opens offline, as before they existed.
  const translated = await translationsCopy(book, chapter, signal).catch((error: unknown) => {
    if (signal.aborted) throw error;
    return null;
  });
  const dataUrl = location.origin + chapterDataPath(book, chapterNo);
  // Answers kept for other languages (an earlier download, before the learner or the chapter changed
  // them) go: they could show out-of-date text.
  for (const kept of await cache.keys(dataUrl, { ignoreSearch: true }))
    if (new URL(kept.url).search && kept.url !== translated?.url) await cache.delete(kept);
  let bytes = progress.bytes;
  if (translated) {
    await cache.put(translated.url, jsonResponse(translated.body));
    bytes += new Blob([translated.body]).size;
  }
  await cache.put(dataUrl, jsonResponse(body));
  bytes += new Blob([body]).size;
  // Its lookups (bounded by the server), best effort: without them the chapter opens and plays offline,
  // and a tapped word says it needs the connection.
  const lookups = await api<unknown>(
    `lookup/chapter?book_code=${encodeURIComponent(book)}&chapter_no=${chapterNo}`,
    { signal, passive: true },
  ).catch((error: unknown) => {
    if (signal.aborted) throw error;
    return null;
  });
  if (lookups) {
    const text = JSON.stringify(lookups);
    await cache.put(chapterLookupsKey(book, chapterNo), jsonResponse(text));
    bytes += new Blob([text]).size;
  }
  const page = await fetchForDevice(readerPath(book, chapterNo), { signal });
  // The page as stored (decoded): its Content-Length, when sent, counts the compressed bytes.
  bytes += (await page.clone().blob()).size;
  await cache.put(location.origin + readerPath(book, chapterNo), page);
  const done = { ...record, bytes, at: Date.now() };
  await put('downloads', done, key);
  return done;
}

/** A stored answer's size: its Content-Length, or its body's when it has none. */
async function sizeOf(response: Response): Promise<number> {
  return Number(response.headers.get('content-length')) || (await response.blob()).size;
}

function jsonResponse(body: string): Response {
  return new Response(body, { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}

/** The chapters of a book, with whether each is free (its table of contents). */
export async function bookChapters(book: string, signal?: AbortSignal): Promise<TableOfContents> {
  const response = await fetchForDevice(`/api/v1/guest/book/${encodeURIComponent(book)}/chapters`, {
    signal,
  });
  return ((await response.json()) as { data: TableOfContents }).data;
}

/**
 * Every download recorded on the device. A record whose cache is gone (a new worker's caches, or the
 * browser evicting storage) is dropped: it would say "on this device" of a chapter that is not.
 */
export async function listDownloads(): Promise<DownloadRecord[]> {
  if (!canDownload()) return [];
  const kept: DownloadRecord[] = [];
  for (const { key, value } of await entries<DownloadRecord>('downloads')) {
    if (await caches.has(cacheOf(value))) kept.push(value);
    else await remove('downloads', key);
  }
  return kept;
}

/** Deletes a chapter's copy: its page, its data and the clips no other kept chapter uses. */
export async function deleteDownload(record: DownloadRecord): Promise<void> {
  const name = cacheOf(record);
  const others = (await listDownloads()).filter(
    (r) => r.member === record.member && !(r.book === record.book && r.chapter === record.chapter),
  );
  const stillUsed = new Set([
    ...others.flatMap((r) => r.clipKeys),
    ...(record.member === null ? [] : await (await import('./review-cards')).reviewClipKeys(record.member)),
  ]);
  if (await caches.has(name)) {
    const cache = await caches.open(name);
    for (const path of record.clipKeys) if (!stillUsed.has(path)) await cache.delete(path);
    // Its data, and its answers with translations (the same path with ?translations=).
    await cache.delete(location.origin + chapterDataPath(record.book, record.chapter), {
      ignoreSearch: true,
    });
    await cache.delete(location.origin + readerPath(record.book, record.chapter));
  }
  await remove('downloads', recordKey(record.member, record.book, record.chapter));
}

/** Keeps those pages with a download, so they open offline even if they were never visited here. */
export async function keepShells(signal?: AbortSignal): Promise<void> {
  const cache = await caches.open(PAGES_CACHE);
  for (const path of SHELLS)
    if (!(await cache.match(location.origin + path)))
      await cache.put(location.origin + path, await fetchForDevice(path, { signal }));
}
