/**
 * <take-away>: the book page's download buttons (site/components/TakeAway.astro). The page is shared by
 * everyone, so it is drawn for a visitor; here, in the browser, the buttons become the whole book's for
 * an administrator or a member whose plan gives access (the server decides again at the download: a
 * wrong guess here only changes a label), and a click asks for a signed link, waits for an audiobook
 * being made, and lets the browser save the file.
 *
 * One download at a time: while one is prepared, every link says so (aria-disabled) and a click on one
 * is answered in the live region. A wait ends with a "Download the audiobook" link that takes the focus,
 * never with a download the reader did not click; it stops when the page is left, and asks nothing while
 * the tab is in the background.
 */
import { readerEdition } from './plan-access';
import { getToken } from './session';
import { cancelled, STARTED, takeAway, takeAwayError, type TakeAwayFormat } from './take-away';

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

  private get book(): string {
    return this.dataset.book ?? '';
  }

  private get message(): HTMLElement {
    return this.querySelector<HTMLElement>('[data-message]')!;
  }

  private get ready(): HTMLElement {
    return this.querySelector<HTMLElement>('[data-ready]')!;
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
    void this.download(format, link.closest('[data-ready]') !== null);
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
    for (const link of this.links)
      if (!link.closest('[data-ready]'))
        link.textContent = WHOLE_LABEL[link.dataset.format as TakeAwayFormat];
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

  private async download(format: TakeAwayFormat, fromReadyLink: boolean): Promise<void> {
    const abort = (this.abort = new AbortController());
    this.hold(true);
    // The ready link stays while it has the focus; any other click starts again from the buttons.
    if (!fromReadyLink) this.ready.hidden = true;
    this.say(PREPARING[format]);
    try {
      const result = await takeAway(this.book, format, {
        signal: abort.signal,
        asVisitor: this.visitor,
        onWait: (message) => this.say(message),
      });
      if (result === 'saving') this.say(STARTED);
      else this.offer();
    } catch (error) {
      if (cancelled(abort.signal)) this.say('');
      else this.say(takeAwayError(error), true);
    } finally {
      if (this.abort === abort) this.abort = null;
      this.hold(false);
    }
  }

  /** The audiobook is ready after a wait: a link the reader follows when they choose, with the focus. */
  private offer(): void {
    this.say('');
    this.ready.hidden = false;
    this.ready.querySelector<HTMLAnchorElement>('a')?.focus();
  }
}

customElements.define('take-away', TakeAway);
