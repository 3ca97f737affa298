/**
 * <offline-download>: the "Download for offline" control (site/components/OfflineDownload.astro). Shows
 * clips and megabytes as they arrive, can be cancelled (what arrived stays, and a new start resumes), and
 * marks the chapters on the device in the book's table of contents (`ol.contents`).
 */
import { ApiError, errorMessage } from '../api';
import { getToken, getUser } from '../session';
import type { DownloadProgress, DownloadRecord } from './downloads';
import { entries, offlineSupported } from './store';

/**
 * The chapters of a book on the device, complete, that the one signed in here may open. Read from the
 * records alone: the download code itself (downloads.ts) is loaded only when a download starts.
 */
async function keptChapters(book: string): Promise<Set<number>> {
  const member = getToken() ? (getUser()?.id ?? null) : null;
  const records = await entries<DownloadRecord>('downloads').catch(() => []);
  return new Set(
    records
      .map(({ value }) => value)
      .filter((r) => r.book === book && r.at !== null && (r.member === null || r.member === member))
      .map((r) => r.chapter),
  );
}

const MB = 1024 * 1024;

class OfflineDownload extends HTMLElement {
  private abort: AbortController | null = null;

  private piece<T extends HTMLElement>(name: string): T {
    return this.querySelector<T>(`[data-${name}]`)!;
  }

  private get book(): string {
    return this.dataset.book ?? '';
  }

  connectedCallback(): void {
    if (!offlineSupported()) return;
    this.dataset.ready = '';
    this.piece('start').addEventListener('click', () => void this.start());
    this.piece('cancel').addEventListener('click', () => this.abort?.abort());
    void this.showKept();
  }

  /** The chapters already on the device: marked in the table of contents, or said in the reader. */
  private async showKept(say = true): Promise<void> {
    const kept = await keptChapters(this.book);
    for (const li of document.querySelectorAll<HTMLLIElement>('ol.contents li')) {
      const no = Number(/\/(\d+)$/.exec(li.querySelector('a')?.getAttribute('href') ?? '')?.[1]);
      if (kept.has(no) && !li.querySelector('.downloaded'))
        li.querySelector('.meta')?.append(
          Object.assign(document.createElement('span'), {
            className: 'downloaded',
            textContent: ' · ✓ On this device',
          }),
        );
    }
    const chapter = Number(this.dataset.chapter);
    if (say && chapter && kept.has(chapter))
      this.say('This chapter is on this device: it opens offline too.');
  }

  private say(text: string): void {
    this.piece('message').textContent = text;
  }

  private show(progress: DownloadProgress, prefix: string): void {
    const bar = this.piece<HTMLProgressElement>('progress').querySelector('progress')!;
    bar.value = progress.clipsTotal ? (100 * progress.clipsDone) / progress.clipsTotal : 0;
    this.piece('figures').textContent =
      `${prefix}${progress.clipsDone} of ${progress.clipsTotal} clips · ${(progress.bytes / MB).toFixed(1)} MB`;
  }

  private async start(): Promise<void> {
    this.abort = new AbortController();
    const { signal } = this.abort;
    this.piece('start').hidden = true;
    this.piece('progress').hidden = false;
    this.say('');
    const single = Number(this.dataset.chapter) || null;
    try {
      const { bookChapters, downloadChapter, keepShells } = await import('./downloads');
      const chapters = single
        ? [{ chapter_no: single, free: true }]
        : (await bookChapters(this.book, signal)).chapters;
      // Without a plan (or signed out), the locked chapters are left out rather than refused one by one.
      const wanted = getToken() ? chapters : chapters.filter((c) => c.free);
      let done = 0;
      let refused = 0;
      for (const chapter of wanted) {
        const prefix = single ? '' : `Chapter ${chapter.chapter_no} (${done + 1} of ${wanted.length}): `;
        try {
          await downloadChapter(this.book, chapter.chapter_no, {
            signal,
            onProgress: (p) => this.show(p, prefix),
          });
          done++;
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 403) || single) throw error;
          refused++;
        }
      }
      // The member's cards of this book for the coming days, so /review works offline too.
      const user = getUser();
      if (getToken() && user)
        await import('./review-cards')
          .then(({ keepReviewCards }) => keepReviewCards(user.id, this.book, signal))
          .catch(() => undefined);
      await keepShells(signal).catch(() => undefined);
      const left = chapters.length - wanted.length + refused;
      this.say(
        single
          ? 'Downloaded: this chapter opens offline.'
          : `Downloaded ${done} chapter${done === 1 ? '' : 's'}.${left ? ` ${left} need${left === 1 ? 's' : ''} Premium Plus.` : ''}`,
      );
    } catch (error) {
      this.say(
        signal.aborted
          ? 'Cancelled. What arrived stays on this device; start again to finish.'
          : error instanceof ApiError && error.status === 403
            ? 'This chapter needs Premium Plus.'
            : error instanceof ApiError && error.status === 0
              ? 'The connection was lost. What arrived stays on this device; start again to finish.'
              : error instanceof DOMException && error.name === 'QuotaExceededError'
                ? 'This device has no room left: delete some downloads on the Downloads page.'
                : errorMessage(error),
      );
    } finally {
      this.abort = null;
      this.piece('start').hidden = false;
      this.piece('progress').hidden = true;
      await this.showKept(false);
    }
  }
}

customElements.define('offline-download', OfflineDownload);
