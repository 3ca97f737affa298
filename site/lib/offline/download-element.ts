/**
 * <offline-download>: the "Download for offline" control (site/components/OfflineDownload.astro), in the
 * reader (one chapter) and on the book page (every chapter this reader may open). It shows its state
 * (`data-state`): `start` (the button), `running` (a percentage, clips and size, Cancel: what arrived
 * stays, and a new start resumes), `kept` ("Downloaded · 38 KB · Remove"). On the book page it also marks
 * the chapters on the device in the table of contents (`ol.contents`). In the reader, play all moving on
 * to the next chapter changes `data-chapter`, and the state follows. A locked chapter's button is not
 * offered to a reader it stays locked to (a visitor, a member without the plan: plan-access.ts).
 */
import { readerEdition } from '../plan-access';
import { getToken, getUser } from '../session';
import type { DownloadProgress, DownloadRecord } from './downloads';
import { DOWNLOADS_CHANGED } from './member';
import { formatSize } from './size';
import { entries, offlineSupported } from './store';

/**
 * The chapters of a book on the device, complete, that the one signed in here may open. Read from the
 * records alone: the download code itself (downloads.ts) is loaded only when a download starts.
 */
async function keptRecords(book: string): Promise<DownloadRecord[]> {
  const member = getToken() ? (getUser()?.id ?? null) : null;
  const records = await entries<DownloadRecord>('downloads').catch(() => []);
  return records
    .map(({ value }) => value)
    .filter((r) => r.book === book && r.at !== null && (r.member === null || r.member === member));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The book page's chapters, from its table of contents: number and whether it is free. */
function contents(): Array<{ li: HTMLLIElement; no: number; free: boolean }> {
  return [...document.querySelectorAll<HTMLLIElement>('ol.contents li')].map((li) => ({
    li,
    no: Number(/\/(\d+)$/.exec(li.querySelector('a')?.getAttribute('href') ?? '')?.[1]),
    free: li.querySelector('.free') !== null,
  }));
}

/** Whether this reader gets every chapter (a plan, an administrator, or not known: the server decides). */
const opensAll = async () => {
  const edition = await readerEdition();
  return edition === 'whole' || edition === null;
};

class OfflineDownload extends HTMLElement {
  static observedAttributes = ['data-chapter'];
  private abort: AbortController | null = null;
  /** Counts the state's refreshes: one overtaken by a newer (another chapter meanwhile) draws nothing. */
  private refreshes = 0;

  private piece<T extends HTMLElement>(name: string): T {
    return this.querySelector<T>(`[data-${name}]`)!;
  }

  private get book(): string {
    return this.dataset.book ?? '';
  }

  /** The reader's chapter, or null on the book page. */
  private get single(): number | null {
    return Number(this.dataset.chapter) || null;
  }

  connectedCallback(): void {
    if (!offlineSupported()) return;
    this.piece('start').addEventListener('click', () => void this.start());
    this.piece('cancel').addEventListener('click', () => this.abort?.abort());
    this.piece('remove').addEventListener('click', () => void this.removeKept());
    void this.refresh().finally(() => (this.dataset.ready = ''));
    // What is on the device can change under the page: a lapsed plan's downloads deleted (page-offline.ts),
    // a book removed on /downloads before Back brings this page from the back/forward cache.
    const again = () => void (this.abort ? undefined : this.refresh());
    addEventListener(DOWNLOADS_CHANGED, again);
    addEventListener('pageshow', (event) => event.persisted && again());
  }

  /** Another chapter in the reader (play all moved on): its own state. */
  attributeChangedCallback(_name: string, before: string | null, after: string | null): void {
    // Not at the upgrade (before is null then): connectedCallback draws the first state.
    if (before === null || before === after || !this.isConnected || !offlineSupported() || this.abort) return;
    this.say('');
    void this.refresh();
  }

  private setState(state: 'start' | 'running' | 'kept'): void {
    this.piece('start').hidden = state !== 'start';
    this.piece('progress').hidden = state !== 'running';
    this.piece('kept').hidden = state !== 'kept';
    this.dataset.state = state;
  }

  /** Draws what is on the device: the reader's chapter, or the book (with its contents marked). */
  private async refresh(): Promise<void> {
    const turn = ++this.refreshes;
    const single = this.single;
    const kept = await keptRecords(this.book);
    const size = (records: DownloadRecord[]) => formatSize(records.reduce((sum, r) => sum + r.bytes, 0));
    if (single) {
      const record = kept.filter((r) => r.chapter === single);
      const offered = record.length > 0 || (await this.offered());
      if (turn !== this.refreshes) return;
      this.hidden = !offered;
      this.piece('kept-text').textContent = `Downloaded · ${size(record)}`;
      return this.setState(record.length ? 'kept' : 'start');
    }
    const all = await opensAll();
    if (turn !== this.refreshes) return;
    const chapters = contents();
    const keptNos = new Set(kept.map((r) => r.chapter));
    for (const { li, no } of chapters) {
      const mark = li.querySelector('.downloaded');
      if (keptNos.has(no) && !mark) {
        const meta = li.querySelector('.meta');
        const template = this.querySelector<HTMLTemplateElement>('template[data-mark]');
        if (meta && template) meta.append(template.content.cloneNode(true));
      } else if (!keptNos.has(no) && mark) mark.remove();
    }
    const wanted = chapters.filter((c) => all || c.free);
    const free = chapters.length > wanted.length;
    this.piece('label').textContent = free
      ? `Download the free chapter${wanted.length === 1 ? '' : 's'} for offline`
      : 'Download the book for offline';
    const complete = wanted.length > 0 && wanted.every((c) => keptNos.has(c.no));
    this.piece('kept-text').textContent = complete
      ? `Downloaded · ${plural(kept.length, free ? 'free chapter' : 'chapter')} · ${size(kept)}`
      : `${plural(kept.length, 'chapter')} on this device · ${size(kept)}`;
    this.setState(complete ? 'kept' : 'start');
    // Some chapters kept, others not: the way to the rest, and to remove what is kept.
    this.piece('kept').hidden = kept.length === 0;
  }

  /** Whether the reader's chapter may be downloaded by this reader: a free one, or one a plan opens. */
  private async offered(): Promise<boolean> {
    if (this.closest<HTMLElement>('reader-app')?.dataset.free !== 'false') return true;
    return getToken() !== null && (await opensAll());
  }

  private say(text: string): void {
    this.piece('message').textContent = text;
  }

  private show(progress: DownloadProgress, prefix: string): void {
    const percent = progress.clipsTotal ? Math.floor((100 * progress.clipsDone) / progress.clipsTotal) : 0;
    this.piece('progress').querySelector('progress')!.value = percent;
    this.piece('figures').textContent =
      `${prefix}${percent}% · ${progress.clipsDone} of ${progress.clipsTotal} clips · ${formatSize(progress.bytes)}`;
  }

  private async start(): Promise<void> {
    this.abort = new AbortController();
    const { signal } = this.abort;
    this.setState('running');
    this.focusOn('cancel');
    this.show({ clipsDone: 0, clipsTotal: 0, bytes: 0 }, '');
    this.say('');
    const single = this.single;
    // The download code and the API client come at the first click: most readers of a book page never
    // press it (docs/benchmarks.md, the book page's JS budget).
    let client: typeof import('../api') | null = null;
    try {
      client = await import('../api');
      const { ApiError } = client;
      const { bookChapters, downloadChapter, keepShells } = await import('./downloads');
      const chapters = single
        ? [{ chapter_no: single, free: true }]
        : (await bookChapters(this.book, signal)).chapters;
      // A visitor, or a member without the plan, gets the free chapters: the others would be refused.
      const wanted = single || (await opensAll()) ? chapters : chapters.filter((c) => c.free);
      const done: number[] = [];
      let refused = 0;
      for (const chapter of wanted) {
        const prefix = single
          ? ''
          : `Chapter ${chapter.chapter_no} (${done.length + 1} of ${wanted.length}): `;
        try {
          await downloadChapter(this.book, chapter.chapter_no, {
            signal,
            onProgress: (p) => this.show(p, prefix),
          });
          done.push(chapter.chapter_no);
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 403) || single) throw error;
          refused++;
        }
      }
      // The member's cards of this book for the coming days, so /review works offline too, and their
      // marks and saved words of each chapter, so the reader shows them offline (kept-marks.ts).
      const user = getUser();
      if (getToken() && user) {
        await import('./review-cards')
          .then(({ keepReviewCards }) => keepReviewCards(user.id, this.book, signal))
          .catch(() => undefined);
        await import('./kept-marks')
          .then(async ({ keepChapterMarks }) => {
            for (const no of done)
              await keepChapterMarks(user.id, this.book, no, signal).catch(() => undefined);
          })
          .catch(() => undefined);
      }
      await keepShells(signal).catch(() => undefined);
      const left = chapters.length - wanted.length + refused;
      this.say(
        single
          ? 'Downloaded: this chapter opens offline.'
          : `Downloaded ${plural(done.length, 'chapter')}.${left ? ` ${left} need${left === 1 ? 's' : ''} Premium Plus.` : ''}`,
      );
    } catch (error) {
      const ApiError = client?.ApiError;
      const api = (status: number) =>
        ApiError !== undefined && error instanceof ApiError && error.status === status;
      this.say(
        signal.aborted
          ? 'Cancelled. What arrived stays on this device; start again to finish.'
          : api(403)
            ? 'This chapter needs Premium Plus.'
            : api(0)
              ? 'The connection was lost. What arrived stays on this device; start again to finish.'
              : error instanceof DOMException && error.name === 'QuotaExceededError'
                ? 'This device has no room left: delete some downloads on the Downloads page.'
                : client
                  ? client.errorMessage(error)
                  : 'The download could not start: check the connection.',
      );
    } finally {
      this.abort = null;
      await this.refresh();
      this.focusState();
    }
  }

  /** Removes the device copy (this chapter, or every chapter of the book kept for this reader). */
  private async removeKept(): Promise<void> {
    const single = this.single;
    const records = (await keptRecords(this.book)).filter((r) => !single || r.chapter === single);
    const button = this.piece<HTMLButtonElement>('remove');
    button.disabled = true;
    try {
      const { deleteDownload } = await import('./downloads');
      for (const record of records) await deleteDownload(record);
      // The whole book: its review cards kept for this member go with it, as on /downloads.
      const member = getToken() ? getUser()?.id : undefined;
      if (!single && member !== undefined)
        await import('./review-cards').then(({ forgetReviewCards }) => forgetReviewCards(member, this.book));
      this.say(single ? 'Removed from this device.' : "The book's chapters were removed from this device.");
    } catch (error) {
      void error; // an IndexedDB or cache failure: its own text means nothing to a reader
      this.say('This could not be removed from the device: please try again.');
    } finally {
      button.disabled = false;
      await this.refresh();
      this.focusState();
    }
  }

  /**
   * Keeps the keyboard's place when the control it was on goes away (hidden, the browser drops focus to
   * the page): on the control that takes its place, unless the learner has moved on elsewhere.
   */
  private focusOn(name: 'cancel' | 'start' | 'remove'): void {
    const active = document.activeElement;
    const target = this.piece(name);
    if (target.closest('[hidden]')) return;
    if (!active || active === document.body || active.closest('offline-download [hidden]'))
      target.focus({ preventScroll: true });
  }

  private focusState(): void {
    this.focusOn(this.dataset.state === 'kept' ? 'remove' : 'start');
  }
}

customElements.define('offline-download', OfflineDownload);
