/**
 * Every word of a shown phrase can be tapped to look it up (docs/practice.md, "Word lookups"). The phrase's
 * button stays its play control: a tap on one of its words opens that word's lookup, a tap anywhere else on
 * the phrase (its play icon, the space around its words) plays it, as before. The keyboard's Enter and
 * Space on the phrase play it too; W lists the words of the focused phrase (else the current one), each a
 * button opening its lookup, and so does the player bar's Words button (the current phrase's), the way a
 * screen reader on a touch screen reaches them. While a lookup is open, a tap on another shown word opens
 * that word's lookup in the same tap.
 *
 * Only the segmenting is here (site/lib/lookup/words.ts): a phrase's words are wrapped when a pointer first
 * comes over it, and the lookup itself (the sheet, its requests) is fetched with import() once the page is
 * idle (or on the first such pointer, if sooner), before any tap, so the sheet opens at once.
 */
import type { LookupSheet } from '../lookup/lookup-sheet';
import { distinctWords, WORD_CLASS, wrapWords } from '../lookup/words';
import type { ReaderHost } from './practice';

/** Whether the phrase's text is on screen: not hidden by Hide text nor by an unchecked dictation. */
export function textShown(li: HTMLElement): boolean {
  const list = li.parentElement?.classList;
  if (list?.contains('hide-text') && !li.classList.contains('revealed')) return false;
  if (list?.contains('dictation') && !li.classList.contains('dictated')) return false;
  return true;
}

export class WordTaps {
  private sheet: Promise<LookupSheet> | undefined;

  constructor(
    private readonly reader: ReaderHost,
    private readonly list: HTMLElement,
  ) {
    // The lookup's code (about 3 KB) comes once the page is idle, as the marks and translations do after
    // the phrases show, so the first tap opens the sheet at once; a pointer over a phrase asks sooner.
    const warm = () => void this.load().catch(() => undefined);
    if ('requestIdleCallback' in window) requestIdleCallback(warm, { timeout: 5000 });
    else setTimeout(warm, 2000);
    list.addEventListener('pointerover', (event) => {
      const text = (event.target as Element).closest<HTMLElement>('.phrase');
      if (!text || !textShown(text.closest('li')!)) return;
      wrapWords(text, this.lang);
      void this.load().catch(() => undefined);
    });
  }

  private get lang(): string {
    return this.reader.dataset.lang ?? '';
  }

  private load(): Promise<LookupSheet> {
    this.sheet ??= import('../lookup/lookup-sheet').then(
      (m) => new m.LookupSheet(this.reader, (event) => this.tappedBehind(event)),
    );
    // A failed import (offline, a new release) is tried again on the next tap.
    this.sheet.catch(() => (this.sheet = undefined));
    return this.sheet;
  }

  /**
   * A click on the phrases: true when it was a word's tap, whose lookup is opening (the phrase does not
   * play). A keyboard's Enter on the phrase button is never a word's: its click has no pointer.
   */
  tapped(event: MouseEvent, index: number): boolean {
    const item = this.reader.phrases[index];
    if (!item || event.detail === 0 || !textShown(item.li)) return false;
    const text = item.li.querySelector<HTMLElement>('.phrase');
    if (!text) return false;
    const fresh = text.dataset.words !== 'wrapped';
    wrapWords(text, this.lang);
    // Wrapped during this very tap (its pointerover), the click's target is the text around the words:
    // the word is the one under the pointer.
    const hit =
      fresh || !(event.target as Element).closest(`.${WORD_CLASS}`)
        ? document.elementFromPoint(event.clientX, event.clientY)
        : (event.target as Element);
    const word = hit?.closest<HTMLElement>(`.${WORD_CLASS}`);
    if (!word || !text.contains(word)) return false;
    this.open((sheet) => sheet.openWord(item, word.textContent ?? '', word, event.timeStamp));
    return true;
  }

  /**
   * A tap outside the open lookup, on the page behind it (inert, so found by position, not by hit
   * testing): true when it was on a word of a shown phrase, whose lookup is opening. Not through the
   * player bar nor the site's header, which sit over the phrases.
   */
  private tappedBehind(event: MouseEvent): boolean {
    const { clientX: x, clientY: y } = event;
    const within = (box: DOMRect) => x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
    const over = [this.reader.querySelector('.player-bar'), document.querySelector('[data-site-header]')];
    if (over.some((element) => element && within(element.getBoundingClientRect()))) return false;
    const item = this.reader.phrases.find((found) => {
      const text = found.li.querySelector('.phrase');
      return !!text && within(text.getBoundingClientRect());
    });
    if (!item || !textShown(item.li)) return false;
    const text = item.li.querySelector<HTMLElement>('.phrase')!;
    wrapWords(text, this.lang);
    const word = [...text.querySelectorAll<HTMLElement>(`.${WORD_CLASS}`)].find((found) =>
      [...found.getClientRects()].some(within),
    );
    if (!word) return false;
    this.open((sheet) => sheet.openWord(item, word.textContent ?? '', word, event.timeStamp));
    return true;
  }

  /** The player bar's Words button: the words of the current phrase (the first one before any). */
  listCurrent(): void {
    this.listWords(Math.max(this.reader.current, 0));
  }

  /** W: the words of the focused phrase, else of the current one. */
  keys(): Record<string, () => void> {
    const list = () => {
      const focused = document.activeElement?.closest('li');
      const at = this.reader.phrases.findIndex((item) => item.li === focused);
      this.listWords(at >= 0 ? at : Math.max(this.reader.current, 0));
    };
    return { w: list, W: list };
  }

  private listWords(index: number): void {
    const item = this.reader.phrases[index];
    if (!item) return;
    // Said in the sheet, not only to a screen reader: a sighted tap on Words must show something.
    if (!textShown(item.li))
      return this.open((sheet) =>
        sheet.openNote(item, 'The text of this phrase is hidden, so its words cannot be looked up yet.'),
      );
    const words = distinctWords(item.text, this.lang);
    if (words.length === 0)
      return this.open((sheet) => sheet.openNote(item, 'This phrase has no words to look up.'));
    this.open((sheet) => sheet.openList(item, words));
  }

  private open(show: (sheet: LookupSheet) => void): void {
    this.load().then(show, () =>
      this.reader.announce('The lookup could not load. Check your connection, then try again.'),
    );
  }
}
