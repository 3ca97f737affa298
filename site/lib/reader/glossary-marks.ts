/**
 * The reader's "Save" toggles: each glossary entry of the current phrase can be kept as a word to review.
 * Which entries are saved comes from the member's own call (the chapter answer is cached for everyone),
 * and saved entries are marked on every phrase of the page. Visitors are sent to sign in.
 */
import type { WordResponse } from '../../../server/words/words.dto';
import { api, ApiError } from '../api';
import { sendOrQueue } from '../offline/queue';
import { getToken } from '../session';

/** The largest page the words call gives; a chapter's saved words rarely need a second one. */
/** The id of a word saved offline, until the server gives it one. */
const QUEUED = -1;
const PAGE = 200;

const key = (phraseId: number, term: string) => `${phraseId}\n${term}`;

export class GlossaryMarks {
  /** Saved entries of this chapter: phrase and term to the word's id. */
  private saved = new Map<string, number>();

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
    if (getToken()) {
      try {
        for (let page = 1; ; page++) {
          const query = `book_code=${encodeURIComponent(book)}&chapter_no=${chapterNo}&per_page=${PAGE}&page=${page}`;
          const answer = await api<{ data: WordResponse[]; meta: { total: number } }>(`user/words?${query}`);
          for (const word of answer.data) this.saved.set(key(word.phrase_id, word.term), word.id);
          if (page * PAGE >= answer.meta.total) break;
        }
      } catch {
        // Without the marks the toggles still work: saving twice answers the same word.
      }
    }
    this.paint();
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
  }

  private async toggle(button: HTMLButtonElement): Promise<void> {
    if (!getToken()) {
      location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
      return;
    }
    const { phraseId, term } = entryOf(button.closest<HTMLElement>('.glossary > div')!);
    const id = this.saved.get(key(phraseId, term));
    button.disabled = true;
    try {
      if (id === QUEUED) {
        this.announce(`“${term}” waits to be saved: it can be removed once you are back online.`);
      } else if (id) {
        await api(`user/words/${id}`, { method: 'DELETE' });
        this.saved.delete(key(phraseId, term));
        this.announce(`“${term}” removed from your words.`);
      } else {
        const answer = await sendOrQueue<{ data: WordResponse }>('word', 'user/words', 'POST', {
          phrase_id: phraseId,
          term,
        });
        // Offline: kept on the device and saved once back online (queue.ts); no id to remove it by yet.
        this.saved.set(key(phraseId, term), answer?.data.id ?? QUEUED);
        this.announce(
          answer
            ? `“${term}” saved to your words.`
            : `“${term}” will be saved to your words when you are back online.`,
        );
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && id) this.saved.delete(key(phraseId, term));
      else this.announce(error instanceof ApiError ? error.message : 'The word could not be saved.');
    } finally {
      button.disabled = false;
      this.paint();
      button.focus();
    }
  }
}

function entryOf(row: HTMLElement): { phraseId: number; term: string } {
  return {
    phraseId: Number(row.closest<HTMLElement>('li')?.dataset.id),
    term: row.querySelector('dt')?.textContent ?? '',
  };
}
