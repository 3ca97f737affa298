/**
 * The reader's word statuses (docs/word-status.md): the chapter's new words underlined dotted and the
 * words in learning underlined solid (styles, not colour alone: reader/phrases.css), a switch in the settings
 * sheet to turn the underlines off, "I know this word" / "I don't know it yet" in the word lookup, and "Mark
 * the rest as known" at the chapter's end, with Undo. A member's statuses come from the server
 * (`GET user/word-status/chapter`), kept on the device for the reader offline (kept-marks.ts); a status
 * set offline waits in the queue with its time (queue.ts) and shows at once. Visitors see no marks.
 */
import type { WordStatusResponse } from '../../../server/learning/word-status/word-status.dto';
import { formOf } from '../../../server/platform/common/running-words';
import { api, ApiError } from '../api';
import { keepCopy, keptCopy, type KeptStatuses } from '../offline/kept-marks';
import { sendOrQueue } from '../offline/queue';
import { getToken } from '../session';
import { WORD_CLASS, wrapWords } from '../lookup/words';
import { textShown } from './word-taps';
import type { ReaderHost } from './practice';

/** A word with a letter: only those have a status (docs/word-status.md). */
const LETTER = /\p{L}/u;

/** Whether the underlines show, on this device (a reading preference, like the speed). */
const MARKS_SETTING = 'lingonovel:word-marks';

export type ShownStatus = 'known' | 'learning' | 'new';

export class WordMarks {
  private statuses: KeptStatuses = {};
  private loaded = false;
  private undoId: number | null = null;
  /** A marking or its undo is under way: one at a time. */
  private marking = false;

  constructor(
    private readonly reader: ReaderHost,
    private readonly list: HTMLElement,
  ) {
    const toggle = reader.querySelector<HTMLButtonElement>('[data-action="word-marks"]');
    if (toggle) {
      toggle.hidden = !getToken();
      toggle.addEventListener('click', () => {
        const on = toggle.getAttribute('aria-pressed') !== 'true';
        localStorage.setItem(MARKS_SETTING, on ? 'on' : 'off');
        this.showSetting();
      });
    }
    const rest = reader.querySelector<HTMLElement>('[data-mark-rest]');
    if (rest && getToken()) {
      rest.hidden = false;
      rest.querySelector('[data-action="mark-rest"]')?.addEventListener('click', () => void this.markRest());
      rest.querySelector('[data-action="undo-rest"]')?.addEventListener('click', () => void this.undoRest());
    }
    this.showSetting();
  }

  private get lang(): string {
    return this.reader.dataset.lang ?? '';
  }

  private get on(): boolean {
    return localStorage.getItem(MARKS_SETTING) !== 'off';
  }

  private showSetting(): void {
    this.reader.querySelector('[data-action="word-marks"]')?.setAttribute('aria-pressed', String(this.on));
    this.list.classList.toggle('word-marks', this.on && this.loaded);
  }

  /** The member's statuses of the chapter: the server's, else the device's copy (offline). */
  async show(): Promise<void> {
    if (!getToken() || !this.lang) return;
    const { book, chapterNo } = this.reader;
    try {
      const answer = await api<{ data: { words: KeptStatuses } }>(
        `user/word-status/chapter?book_code=${encodeURIComponent(book)}&chapter_no=${chapterNo}`,
        // A free chapter's page is public: an ended session is not sent to sign in from it.
        { passive: true },
      );
      this.statuses = answer.data.words;
      void keepCopy('statuses', book, chapterNo, this.statuses);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 0) return;
      this.statuses = (await keptCopy('statuses', book, chapterNo)) ?? {};
    }
    this.loaded = true;
    this.paint();
  }

  /** A word's status as the reader knows it; null for a number, which has none ("1999"). */
  statusOf(word: string): ShownStatus | null {
    if (!LETTER.test(word)) return null;
    return this.statuses[formOf(word, this.lang)] ?? 'new';
  }

  /** Another chapter shown in place (play all moved on): its statuses, and no Undo of the last one's. */
  async chapterChanged(): Promise<void> {
    this.undoId = null;
    const undo = this.reader.querySelector<HTMLButtonElement>('[data-action="undo-rest"]');
    if (undo) undo.hidden = true;
    const status = this.reader.querySelector<HTMLElement>('[data-mark-rest-status]');
    if (status) status.textContent = '';
    this.loaded = false;
    await this.show();
  }

  /** Underlines every shown word by its status (known words: none). */
  paint(): void {
    if (!this.loaded) return;
    for (const item of this.reader.phrases) {
      const text = item.li.querySelector<HTMLElement>('.phrase');
      if (!text || !textShown(item.li)) continue;
      wrapWords(text, this.lang);
      for (const word of text.querySelectorAll<HTMLElement>(`.${WORD_CLASS}`)) {
        const status = this.statusOf(word.textContent ?? '');
        if (status) word.dataset.status = status;
        else delete word.dataset.status;
      }
    }
    this.showSetting();
  }

  /**
   * "I know this word" / "I don't know it yet" (the lookup's buttons): sent, or queued with its time
   * offline, and shown at once. Answers the message said.
   */
  async set(word: string, status: 'known' | 'new'): Promise<string> {
    if (!getToken()) {
      location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
      return '';
    }
    const body = { lang: this.lang, word, status };
    try {
      const answer = await sendOrQueue<{ data: WordStatusResponse }>(
        'status',
        'user/word-status',
        'PUT',
        body,
        {
          ...body,
          at: new Date().toISOString(),
        },
      );
      this.remember(word, status);
      // Other forms of the same lemma change too: the server's view of the chapter says which.
      if (answer) void this.show();
      else this.paint();
      const said = status === 'known' ? 'is marked as known' : 'is marked as new';
      return answer ? `“${word}” ${said}.` : `“${word}” ${said}; it will be saved when you are back online.`;
    } catch (error) {
      return error instanceof ApiError ? error.message : 'The word could not be marked.';
    }
  }

  private remember(word: string, status: 'known' | 'new'): void {
    const form = formOf(word, this.lang);
    if (status === 'known') this.statuses[form] = 'known';
    else if (this.statuses[form] === 'known') delete this.statuses[form];
    void keepCopy('statuses', this.reader.book, this.reader.chapterNo, this.statuses);
  }

  /** "Mark the rest as known": the words of the chapter neither known nor saved; Undo offered after. */
  private async markRest(): Promise<void> {
    const status = this.reader.querySelector<HTMLElement>('[data-mark-rest-status]');
    const undo = this.reader.querySelector<HTMLButtonElement>('[data-action="undo-rest"]');
    const button = this.reader.querySelector<HTMLButtonElement>('[data-action="mark-rest"]');
    // One marking at a time: a second tap would answer "nothing left" and lose the first one's Undo. The
    // button stays enabled (a disabled one would drop the focus), busy.
    if (this.marking) return;
    this.marking = true;
    button?.setAttribute('aria-busy', 'true');
    try {
      const answer = await api<{ data: { id: number | null; changed: number } }>('user/word-status/chapter', {
        method: 'POST',
        body: { book_code: this.reader.book, chapter_no: this.reader.chapterNo },
      });
      // Nothing left to mark keeps the Undo of the marking before, if there was one here.
      this.undoId = answer.data.id ?? this.undoId;
      if (status)
        status.textContent = answer.data.changed
          ? `${answer.data.changed} ${answer.data.changed === 1 ? 'word' : 'words'} marked as known.`
          : 'Every word of this chapter is known or saved already.';
      if (undo) undo.hidden = this.undoId === null;
      await this.show();
    } catch (error) {
      if (status)
        status.textContent = error instanceof ApiError ? error.message : 'The words could not be marked.';
    } finally {
      this.marking = false;
      button?.removeAttribute('aria-busy');
    }
  }

  private async undoRest(): Promise<void> {
    // One action at a time, as for the marking: an undo answered after a new marking would hide its Undo.
    if (this.undoId === null || this.marking) return;
    this.marking = true;
    const status = this.reader.querySelector<HTMLElement>('[data-mark-rest-status]');
    const undo = this.reader.querySelector<HTMLButtonElement>('[data-action="undo-rest"]');
    try {
      const answer = await api<{ data: { changed: number } }>(`user/word-status/chapter/${this.undoId}`, {
        method: 'DELETE',
      });
      this.undoId = null;
      if (undo) undo.hidden = true;
      if (status)
        status.textContent = `Undone: ${answer.data.changed} ${answer.data.changed === 1 ? 'word is' : 'words are'} new again.`;
      await this.show();
      this.reader.querySelector<HTMLButtonElement>('[data-action="mark-rest"]')?.focus();
    } catch (error) {
      if (status) status.textContent = error instanceof ApiError ? error.message : 'It could not be undone.';
    } finally {
      this.marking = false;
    }
  }
}
