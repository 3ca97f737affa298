/**
 * Dictation mode (docs/practice.md, "The reader"): the phrases' text is hidden; the current phrase's
 * clip plays and the learner types what they heard under it. Enter checks: a member's attempt goes to
 * the server, which scores and keeps it (POST user/dictation); a visitor's is compared in the browser by
 * the server's own code (server/learning/practice/dictation-compare.ts) and kept nowhere. Each phrase shows its
 * score, and the chapter its total. Play all stops after each phrase, to leave time to type.
 *
 * Keys in the field: Enter checks, Enter again (nothing changed) goes on to the next phrase; Tab replays
 * the phrase, and a second Tab, with nothing typed in between, moves the focus on as usual, so Tab never
 * traps anyone (Shift+Tab always leaves). The reader's own keys are off while typing.
 */
import type { DictationResult } from '../../../server/learning/practice/dictation-compare';
import { api, ApiError } from '../api';
import { getToken } from '../session';
import { dictationForm, insertAtCursor, outcomeSentence, showOutcome } from './dictation-view';
import type { ReaderHost } from './practice';

const SLOWER = 0.75;
const STRICT_KEY = 'dictation-strict';

interface ChapterScores {
  phrases: Array<{ phrase_id: number; score: number; attempts: number }>;
  total: number | null;
}

export class Dictation {
  private on = false;
  private readonly list: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly input: HTMLInputElement;
  private readonly summary: HTMLParagraphElement;
  private readonly strictSwitch: HTMLButtonElement;
  /** Scores shown per phrase id: the server's latest for a member, this visit's for a visitor. */
  private scores = new Map<number, number>();
  /** What was last checked, so that Enter on the same text goes on instead of checking again. */
  private checked: { index: number; text: string } | undefined;
  private tabReplayed = false;
  private busy = false;
  /** What was typed under each phrase (by phrase id) and not yet checked, kept when the form moves on. */
  private drafts = new Map<number, string>();
  /** A member's attempt scored here, offline: the summary says it was not kept. */
  private unkept = false;
  /** Only the latest scores asked for are shown (a chapter change or a newer check makes older ones stale). */
  private scoresAsked = 0;

  constructor(private readonly reader: ReaderHost) {
    this.list = reader.querySelector<HTMLElement>('[data-phrases]')!;
    this.form = dictationForm(reader.dataset.lang ?? '');
    this.input = this.form.querySelector('input')!;
    this.summary = Object.assign(document.createElement('p'), { className: 'dictation-summary' });
    this.strictSwitch = reader.querySelector<HTMLButtonElement>('[data-action="strict"]')!;
    this.strictSwitch.setAttribute('aria-pressed', String(this.strict));
    this.strictSwitch.addEventListener('click', () => {
      const strict = !this.strict;
      try {
        localStorage.setItem(STRICT_KEY, strict ? '1' : '0');
      } catch {
        // Not remembered: the choice lasts for this page.
      }
      this.strictSwitch.setAttribute('aria-pressed', String(strict));
    });
    this.wireForm();
    reader.addEventListener('reader:selected', (event) => {
      if (this.on) this.attach((event as CustomEvent<number>).detail, true);
    });
    reader.addEventListener('reader:chapter', () => {
      this.scores.clear();
      this.drafts.clear();
      this.unkept = false;
      this.scoresAsked++;
      // Still dictating: the new chapter's phrases hidden, the form under its first, without a word said.
      if (this.on) this.show(true);
    });
  }

  private get strict(): boolean {
    try {
      return localStorage.getItem(STRICT_KEY) === '1';
    } catch {
      return false;
    }
  }

  setOn(on: boolean): void {
    if (on === this.on) return;
    this.on = on;
    this.show(on);
    this.reader.announce(on ? 'Dictation on: play a phrase, then type what you hear.' : 'Dictation off.');
  }

  /**
   * The page in dictation or not. Each unchecked phrase's text is wrapped in its own span, hidden (not
   * merely transparent: never painted, selected, copied or shown in forced colours); the phrase's button
   * keeps a name that says so.
   */
  private show(on: boolean): void {
    this.reader.holdAfterPhrase = on;
    this.list.classList.toggle('dictation', on);
    this.strictSwitch.closest<HTMLElement>('[data-when-dictation]')!.hidden = !on;
    for (const item of this.reader.phrases) {
      const button = item.li.querySelector('.phrase');
      if (button && on && !button.querySelector('.phrase-text')) {
        const text = Object.assign(document.createElement('span'), { className: 'phrase-text' });
        text.append(...button.childNodes);
        button.append(text);
      }
      if (on && !item.li.classList.contains('dictated'))
        button?.setAttribute('aria-label', `Play phrase ${item.position} (text hidden)`);
      else button?.removeAttribute('aria-label');
    }
    if (!on) {
      this.keepDraft();
      this.form.remove();
      this.summary.remove();
      return;
    }
    this.list.before(this.summary);
    this.attach(Math.max(this.reader.current, 0), false);
    void this.loadScores();
  }

  private keepDraft(): void {
    const item = this.reader.phrases[this.index];
    if (item && this.input.value) this.drafts.set(item.id, this.input.value);
    else if (item) this.drafts.delete(item.id);
  }

  /** The form goes under the current phrase; the focus follows when the learner moved there. */
  private attach(index: number, focus: boolean): void {
    const item = this.reader.phrases[index];
    if (!item) return;
    // Moved only when it must be: taking the form out of the page would take the focus from its field.
    if (this.form.parentElement !== item.li) {
      if (this.form.isConnected) this.keepDraft();
      item.li.querySelector('.phrase')?.after(this.form);
      this.input.value = this.drafts.get(item.id) ?? '';
      this.checked = undefined;
    }
    if (focus) this.input.focus({ preventScroll: true });
  }

  private wireForm(): void {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.check();
    });
    this.form.addEventListener('click', (event) => {
      const button = (event.target as Element).closest<HTMLButtonElement>('button');
      if (!button) return;
      if (button.dataset.insert) insertAtCursor(this.input, button.dataset.insert);
      else if (button.dataset.dictation === 'replay') this.replay();
      else if (button.dataset.dictation === 'slower') this.replay(SLOWER);
    });
    // A letter's button keeps the field's focus and cursor on a pointer; by keyboard the field gets it back.
    this.form.addEventListener('pointerdown', (event) => {
      if ((event.target as Element).closest('[data-insert]')) event.preventDefault();
    });
    this.input.addEventListener('input', () => (this.tabReplayed = false));
    this.input.addEventListener('focus', () => (this.tabReplayed = false));
    this.input.addEventListener('keydown', (event) => {
      if (event.key !== 'Tab' || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
      if (this.tabReplayed) return void (this.tabReplayed = false);
      event.preventDefault();
      this.tabReplayed = true;
      this.replay();
    });
  }

  private get index(): number {
    return this.reader.phrases.findIndex((item) => item.li === this.form.parentElement);
  }

  private replay(rate?: number): void {
    const index = this.index;
    if (index >= 0) this.reader.playAt(index, rate);
    // playAt made the phrase current again, which keeps the field as it is.
    this.input.focus({ preventScroll: true });
  }

  private async check(): Promise<void> {
    const index = this.index;
    const item = this.reader.phrases[index];
    const text = this.input.value;
    if (!item) return;
    // Enter again while the answer is on its way: said, not dropped without a word.
    if (this.busy) return this.reader.announce('Checking…');
    if (this.checked?.index === index && this.checked.text === text) {
      if (index + 1 < this.reader.phrases.length) this.reader.playAt(index + 1);
      else this.reader.announce('That was the last phrase of the chapter.');
      return;
    }
    if (!text.trim()) return this.reader.announce('Type what you heard, then press Enter.');
    this.busy = true;
    try {
      const { result, kept } = await this.score(item.id, item.text, text);
      this.checked = { index, text };
      this.drafts.delete(item.id);
      if (!kept && getToken()) this.unkept = true;
      this.scores.set(item.id, result.score);
      item.li.classList.add('dictated');
      item.li.querySelector('.phrase')?.removeAttribute('aria-label');
      showOutcome(item.li, result, kept);
      this.reader.announce(outcomeSentence(result));
      // The total follows on its own: Enter may go on meanwhile.
      if (kept) void this.loadScores();
      else this.showTotal(null);
    } catch (error) {
      this.reader.announce(error instanceof ApiError ? error.message : 'The dictation could not be checked.');
    } finally {
      this.busy = false;
    }
  }

  /** A member's attempt is scored and kept by the server; a visitor's (or one offline) here, not kept. */
  private async score(
    phraseId: number,
    expected: string,
    typed: string,
  ): Promise<{ result: DictationResult; kept: boolean }> {
    if (getToken()) {
      try {
        const { data } = await api<{ data: DictationResult }>('user/dictation', {
          method: 'POST',
          body: { phrase_id: phraseId, text: typed, strict: this.strict },
        });
        return { result: data, kept: true };
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 0) throw error;
      }
    }
    const { compareDictation } = await import('../../../server/learning/practice/dictation-compare');
    return {
      result: compareDictation(expected, typed, this.strict, this.reader.dataset.lang ?? ''),
      kept: false,
    };
  }

  private async loadScores(): Promise<void> {
    if (!getToken()) return this.showTotal(null);
    const query = `book_code=${encodeURIComponent(this.reader.book)}&chapter_no=${this.reader.chapterNo}`;
    const asked = ++this.scoresAsked;
    try {
      const { data } = await api<{ data: ChapterScores }>(`user/dictation?${query}`);
      if (asked !== this.scoresAsked) return;
      // Scores checked offline this visit stay beside the server's.
      this.scores = new Map([...this.scores, ...data.phrases.map((p) => [p.phrase_id, p.score] as const)]);
      this.showTotal(this.unkept ? null : data.total);
    } catch {
      if (asked === this.scoresAsked) this.showTotal(null);
    }
  }

  /** Each phrase's score beside it, and the chapter's total (the server's for a member). */
  private showTotal(total: number | null): void {
    for (const item of this.reader.phrases) {
      const score = this.scores.get(item.id);
      let badge = item.li.querySelector('.dictation-badge');
      if (score === undefined) {
        badge?.remove();
        continue;
      }
      badge ??= item.li
        .querySelector('.phrase')!
        .insertAdjacentElement(
          'afterend',
          Object.assign(document.createElement('span'), { className: 'dictation-badge' }),
        );
      badge!.textContent = `Dictation ${score}%`;
    }
    const done = [...this.scores.values()];
    const mean = total ?? (done.length ? Math.round(done.reduce((a, b) => a + b, 0) / done.length) : null);
    const member = Boolean(getToken());
    this.summary.textContent =
      mean === null
        ? `Dictation: no phrase checked yet.${member ? '' : ' Sign in to keep your scores.'}`
        : `Dictation: ${Math.round(mean)}% over ${done.length} of ${this.reader.phrases.length} phrases.${
            !member
              ? ' Your scores are not kept: sign in to keep them.'
              : this.unkept
                ? ' Scores checked offline are not kept.'
                : ''
          }`;
  }
}
