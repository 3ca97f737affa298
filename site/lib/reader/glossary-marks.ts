/**
 * The reader's "Save" toggles: each glossary entry of the current phrase can be kept as a word to review.
 * Which entries are saved comes from the member's own call (the chapter answer is cached for everyone),
 * kept on the device for the reader offline (site/lib/offline/kept-marks.ts), and saved entries are
 * marked on every phrase of the page (the star: reader/phrases.css, `.glossary .saved dt::before`). Visitors are
 * sent to sign in.
 */
import type { WordResponse } from '../../../server/learning/words/words.dto';
import { api, ApiError } from '../api';
import { chapterWords, keepCopy, keptCopy, queuedWords, wordsOf } from '../offline/kept-marks';
import { sendOrQueue } from '../offline/queue';
import { getToken } from '../session';

/** The id of a word saved offline, until the server gives it one. */
const QUEUED = -1;

const key = (phraseId: number, term: string) => `${phraseId}\n${term}`;

export class GlossaryMarks {
  /** Saved entries of this chapter: phrase and term to the word's id. */
  private saved = new Map<string, number>();
  /** The meaning each saved word keeps, when known (a word lookup shows which entry it is). */
  private meanings = new Map<string, string>();
  /** The chapter shown, whose copy on the device follows the changes. */
  private chapter: { book: string; no: number } | null = null;
  /** Told after every paint: an open word lookup shows the saved state the member's cards arrived with. */
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly list: HTMLElement,
    private readonly announce: (message: string) => void,
  ) {
    list.addEventListener('click', (event) => {
      const button = (event.target as Element).closest<HTMLButtonElement>('button.save-word');
      if (button) void this.toggle(button);
    });
  }

  /** Adds a toggle to each glossary entry on the page, then marks the member's saved ones. */
  async show(book: string, chapterNo: number): Promise<void> {
    for (const row of this.list.querySelectorAll<HTMLElement>('.glossary > div')) {
      if (row.querySelector('.save-word')) continue;
      const term = row.querySelector('dt')?.textContent ?? '';
      const button = Object.assign(document.createElement('button'), {
        type: 'button',
        className: 'save-word',
        textContent: 'Save',
      });
      button.setAttribute('aria-label', `Save “${term}”`);
      button.setAttribute('aria-pressed', 'false');
      // Inside the <dd>: a <dl>'s groups may hold only terms and descriptions.
      (row.querySelector('dd') ?? row).append(' ', button);
    }
    this.saved.clear();
    this.meanings.clear();
    this.chapter = { book, no: chapterNo };
    if (getToken()) {
      const cards = await chapterWords(book, chapterNo).catch(() => null);
      const online = cards && wordsOf(cards);
      for (const card of cards ?? []) this.meanings.set(key(card.phrase_id, card.term), card.meaning);
      // Without the server (offline), the device's copy; without either the toggles still work: saving
      // twice answers the same word.
      const words = online ?? (await keptCopy('words', book, chapterNo)) ?? [];
      for (const word of words) this.saved.set(key(word.phrase_id, word.term), word.id);
      if (online) void this.keep();
      // Words saved on this device, waiting to be sent.
      for (const { phraseId, term, phrase } of await queuedWords())
        if (!phrase && !this.saved.has(key(phraseId, term))) this.saved.set(key(phraseId, term), QUEUED);
    }
    this.paint();
  }

  /** The device's copy follows every answer of the server (not the words still waiting in the queue). */
  private keep(): void {
    if (!this.chapter) return;
    const words = [...this.saved]
      .filter(([, id]) => id !== QUEUED)
      .map(([entry, id]) => {
        const [phraseId, term] = entry.split('\n');
        return { id, phrase_id: Number(phraseId), term };
      });
    void keepCopy('words', this.chapter.book, this.chapter.no, words);
  }

  private paint(): void {
    for (const row of this.list.querySelectorAll<HTMLElement>('.glossary > div')) {
      const { phraseId, term } = entryOf(row);
      const saved = this.saved.has(key(phraseId, term));
      row.classList.toggle('saved', saved);
      const button = row.querySelector('.save-word');
      button?.setAttribute('aria-pressed', String(saved));
      if (button) button.textContent = saved ? 'Saved' : 'Save';
    }
    for (const listener of this.listeners) listener();
  }

  /**
   * Calls `listener` whenever the saved entries may have changed: the member's cards arrived (a lookup
   * opened right after the page loaded showed them unsaved until then), or a save or a removal.
   */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** Whether the member has saved the entry (one waiting to be sent counts), for the word lookup. */
  isSaved(phraseId: number, term: string): boolean {
    return this.saved.has(key(phraseId, term));
  }

  /** The meaning of the member's card for this word of the phrase, when saved and known. */
  savedMeaning(phraseId: number, term: string): string | undefined {
    const k = key(phraseId, term);
    return this.saved.has(k) ? this.meanings.get(k) : undefined;
  }

  private async toggle(button: HTMLButtonElement): Promise<void> {
    const { phraseId, term } = entryOf(button.closest<HTMLElement>('.glossary > div')!);
    button.disabled = true;
    try {
      await this.toggleEntry(phraseId, term);
    } finally {
      button.disabled = false;
      button.focus();
    }
  }

  /**
   * Saves the entry, or removes it when saved, as its toggle does (the toggles and the word lookup's Save,
   * site/lib/lookup/lookup-sheet.ts). With `definition`, the meaning is a dictionary entry's: on a word
   * saved with another meaning, it replaces that meaning (one card per word of a phrase, docs/lookup.md,
   * "Saving a word") instead of removing the card. Answers the message said; a visitor is sent to sign in.
   */
  async toggleEntry(
    phraseId: number,
    term: string,
    definition?: { meaning: string; dictionaryId: number },
  ): Promise<string> {
    if (!getToken()) {
      location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
      return '';
    }
    const k = key(phraseId, term);
    const id = this.saved.get(k);
    const other = !!definition && id !== undefined && this.meanings.get(k) !== definition.meaning;
    let message = '';
    try {
      if (id === QUEUED) {
        message = `“${term}” waits to be saved: it can be changed once you are back online.`;
      } else if (id && !other) {
        await api(`user/words/${id}`, { method: 'DELETE' });
        this.saved.delete(k);
        this.meanings.delete(k);
        this.keep();
        message = `“${term}” removed from your words.`;
      } else {
        const body = definition
          ? {
              phrase_id: phraseId,
              term,
              meaning: definition.meaning,
              source: 'dictionary',
              dictionary_id: definition.dictionaryId,
            }
          : { phrase_id: phraseId, term };
        const answer = await sendOrQueue<{ data: WordResponse }>('word', 'user/words', 'POST', body);
        // Offline: kept on the device and saved once back online (queue.ts); no id to remove it by yet.
        this.saved.set(k, answer?.data.id ?? QUEUED);
        const meaning = answer?.data.meaning ?? definition?.meaning;
        if (meaning !== undefined) this.meanings.set(k, meaning);
        if (answer) this.keep();
        message = !answer
          ? `“${term}” will be saved to your words when you are back online.`
          : other
            ? `“${term}” now has this meaning in your words.`
            : `“${term}” saved to your words.`;
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && id) this.saved.delete(k);
      else message = error instanceof ApiError ? error.message : 'The word could not be saved.';
    } finally {
      this.paint();
    }
    if (message) this.announce(message);
    return message;
  }
}

function entryOf(row: HTMLElement): { phraseId: number; term: string } {
  return {
    phraseId: Number(row.closest<HTMLElement>('li')?.dataset.id),
    term: row.querySelector('dt')?.textContent ?? '',
  };
}
