/**
 * <take-away>: the book page's download buttons (site/components/TakeAway.astro). The page is shared by
 * everyone, so it is drawn for a visitor; here, in the browser, the buttons become the whole book's for
 * an administrator or a member whose plan gives access (the server decides again at the download: a
 * wrong guess here only changes a label), and a click asks for a signed link, waits for an audiobook
 * being made, and lets the browser save the file.
 *
 * One download at a time: while one is prepared, every link says so (aria-disabled) and a click on one
 * is answered in the live region. The click that starts an audiobook's build also downloads it once it
 * is ready (docs/formats.md): meanwhile the live region says the server's word and a progress bar shows
 * the time against the server's estimate (not announced each second). The wait stops when the page is
 * left, and asks nothing while the tab is in the background.
 */
import { readerEdition } from './plan-access';
import { getToken } from './session';
import type { TakeAwayFormat } from './take-away';

/** The download itself (take-away.ts, with the API client) is loaded at the first click: the book page's
 * own script stays small for the many who only read it (docs/benchmarks.md, the JS budget). */
type Flow = typeof import('./take-away');

const WHOLE_LABEL: Record<TakeAwayFormat, string> = {
  epub: 'Download the read-along EPUB',
  audiobook: 'Download the audiobook (M4B)',
};

const PREPARING: Record<TakeAwayFormat, string> = {
  epub: 'Preparing your EPUB…',
  audiobook: 'Preparing your audiobook…',
};

const ONE_AT_A_TIME = 'One download at a time: please wait until this one is ready.';

class TakeAway extends HTMLElement {
  private busy = false;
  /** Until the plan is known, a token here counts as signed in. */
  private visitor = !getToken();
  private abort: AbortController | null = null;
  private flow: Flow | null = null;
  /** The wait being shown: when it began, the longest estimate heard, and the bar's clock. */
  private wait: { started: number; estimate: number; timer: number } | null = null;

  private get book(): string {
    return this.dataset.book ?? '';
  }

  private get message(): HTMLElement {
    return this.querySelector<HTMLElement>('[data-message]')!;
  }

  private get progress(): HTMLElement {
    return this.querySelector<HTMLElement>('[data-progress]')!;
  }

  private get links(): HTMLAnchorElement[] {
    return [...this.querySelectorAll<HTMLAnchorElement>('a[data-format]')];
  }

  connectedCallback(): void {
    for (const link of this.links) link.addEventListener('click', (event) => this.clicked(event, link));
    // Leaving the page (or putting it in the back/forward cache) ends a wait.
    addEventListener('pagehide', () => this.abort?.abort());
    if (getToken()) void this.showEdition();
  }

  private clicked(event: MouseEvent, link: HTMLAnchorElement): void {
    if (this.busy) {
      event.preventDefault();
      this.say(ONE_AT_A_TIME);
      return;
    }
    const format = link.dataset.format as TakeAwayFormat;
    // A visitor's EPUB is the plain link: the browser saves it as it is.
    if (format === 'epub' && this.visitor) return;
    event.preventDefault();
    void this.download(format);
  }

  private async showEdition(): Promise<void> {
    const found = await readerEdition();
    if (found === 'visitor') this.visitor = true;
    if (found !== 'sample' && found !== 'whole') return;
    const note = this.querySelector<HTMLElement>('[data-note]')!;
    if (found === 'sample') {
      note.textContent = "The sample is the book's free chapter; the whole book comes with Premium Plus.";
      return;
    }
    for (const link of this.links) link.textContent = WHOLE_LABEL[link.dataset.format as TakeAwayFormat];
    note.hidden = true;
  }

  private say(text: string, error = false): void {
    this.message.textContent = text;
    this.message.classList.toggle('error', error);
  }

  private hold(busy: boolean): void {
    this.busy = busy;
    for (const link of this.links)
      if (busy) link.setAttribute('aria-disabled', 'true');
      else link.removeAttribute('aria-disabled');
  }

  private async download(format: TakeAwayFormat): Promise<void> {
    const abort = (this.abort = new AbortController());
    this.hold(true);
    this.say(PREPARING[format]);
    let flow: Flow | null = null;
    try {
      flow = this.flow = await import('./take-away');
      await flow.takeAway(this.book, format, {
        signal: abort.signal,
        asVisitor: this.visitor,
        onWait: (message, seconds) => {
          this.say(message);
          this.waiting(seconds);
        },
      });
      this.say(flow.STARTED);
    } catch (error) {
      if (abort.signal.aborted) this.say('');
      else
        this.say(
          flow ? flow.takeAwayError(error) : 'The download could not start: check the connection.',
          true,
        );
    } finally {
      if (this.abort === abort) this.abort = null;
      this.stopWaiting();
      this.hold(false);
    }
  }

  /** Shows (or keeps) the progress bar; its estimate only grows, so the bar never goes back. */
  private waiting(seconds: number): void {
    if (this.wait) this.wait.estimate = Math.max(this.wait.estimate, seconds);
    else
      this.wait = {
        started: Date.now(),
        estimate: seconds,
        timer: window.setInterval(() => this.tick(), 1000),
      };
    this.progress.hidden = false;
    this.tick();
  }

  private tick(): void {
    if (!this.wait || !this.flow) return;
    const now = this.flow.waitProgress(this.wait.started, this.wait.estimate, Date.now());
    const bar = this.progress.querySelector('progress')!;
    if (now.fraction === null) bar.removeAttribute('value');
    else bar.value = now.fraction;
    this.progress.querySelector('[data-elapsed]')!.textContent = now.text;
  }

  private stopWaiting(): void {
    if (this.wait) window.clearInterval(this.wait.timer);
    this.wait = null;
    this.progress.hidden = true;
  }
}

customElements.define('take-away', TakeAway);
