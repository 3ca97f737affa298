/**
 * "Did you understand?" after each phrase (docs/practice.md, "The reader"): once the current phrase's
 * clip has ended, three small buttons, Got it / Not sure / Lost (keys 1, 2, 3 until another phrase
 * starts), and the "Add to review" toggle. Not sure and Lost make the phrase a card in the member's
 * review, as the toggle does (PUT user/marks, POST user/words with kind "phrase"), so the toggle says
 * whether the phrase is in the review ("In review"), whoever put it there; a marked phrase shows its mark.
 * The member's marks and phrase cards come from their own calls (the chapter answer is cached for
 * everyone), kept on the device for the reader offline (site/lib/offline/kept-marks.ts).
 * Visitors are asked to sign in, as the glossary's Save does (glossary-marks.ts), when they press a
 * button; their keys only say so (a key must not take them off the page, and the clip with it).
 */
import { api, ApiError } from '../api';
import { keepCopy, keptCopy, queuedWords, type KeptMarks, type Mark } from '../offline/kept-marks';
import { sendOrQueue } from '../offline/queue';
import { getToken } from '../session';
import type { KeyOwner, ReaderHost } from './practice';

const MARKS: Array<{ mark: Mark; label: string; key: string }> = [
  { mark: 'got', label: 'Got it', key: '1' },
  { mark: 'unsure', label: 'Not sure', key: '2' },
  { mark: 'lost', label: 'Lost', key: '3' },
];
const LABEL = Object.fromEntries(MARKS.map(({ mark, label }) => [mark, label])) as Record<Mark, string>;
/** A phrase card saved offline, until the server gives it an id. */
const QUEUED = -1;

export class PhraseMarks implements KeyOwner {
  private marks = new Map<number, Mark>();
  /** Phrase cards of this chapter: phrase id to the card's (saved word's) id. */
  private cards = new Map<number, number>();
  /**
   * The phrase whose clip ended last: the keys mark it, and its buttons stay in view, until another
   * phrase ends (in play all, while the next one already sounds) or the learner picks another phrase.
   */
  private ended = -1;

  constructor(private readonly reader: ReaderHost) {
    reader.addEventListener('reader:ended', (event) =>
      this.afterPhrase((event as CustomEvent<number>).detail),
    );
    reader.addEventListener('reader:selected', (event) => {
      // Play all goes on to the next phrase, and the keys still mark the one just heard; any other
      // phrase (a tap, an arrow, Repeat) is the learner's choice, and the keys wait for it to end.
      if ((event as CustomEvent<number>).detail !== this.ended + 1) this.dropEnded();
    });
    reader.querySelector('[data-phrases]')!.addEventListener('click', (event) => {
      const target = event.target as Element;
      // A tap on a phrase (as the reader reads it, reader-element.ts) picks that phrase.
      if (target.closest('li') && !target.closest('.save-word, [data-practice]')) this.dropEnded();
      const button = (event.target as Element).closest<HTMLButtonElement>('.phrase-marks button');
      const li = button?.closest('li');
      if (!button || !li) return;
      const id = Number(li.dataset.id);
      if (button.dataset.mark) void this.mark(id, button.dataset.mark as Mark, button);
      else void this.toggleCard(id, button);
    });
    reader.addEventListener('reader:chapter', () => void this.load());
    void this.load();
  }

  keys(): Record<string, () => void> {
    const item = this.reader.phrases[this.ended];
    if (!item) return {};
    if (!getToken()) {
      const say = () => this.reader.announce('Sign in to mark phrases.');
      return { 1: say, 2: say, 3: say };
    }
    return Object.fromEntries(MARKS.map(({ mark, key }) => [key, () => void this.mark(item.id, mark)]));
  }

  private async load(): Promise<void> {
    this.marks.clear();
    this.cards.clear();
    this.ended = -1;
    if (getToken()) {
      const { book, chapterNo } = this.reader;
      const query = `book_code=${encodeURIComponent(book)}&chapter_no=${chapterNo}`;
      const [marks, cards] = await Promise.all([
        api<{ data: KeptMarks['marks'] }>(`user/marks?${query}`).catch(() => null),
        api<{ data: KeptMarks['cards'] }>(`user/words?kind=phrase&per_page=200&${query}`).catch(() => null),
      ]);
      // Without the server (offline), the device's copy: the answers last read or changed here.
      const kept = marks && cards ? null : await keptCopy('marks', book, chapterNo);
      for (const { phrase_id, mark } of marks?.data ?? kept?.marks ?? []) this.marks.set(phrase_id, mark);
      for (const { id, phrase_id } of cards?.data ?? kept?.cards ?? []) this.cards.set(phrase_id, id);
      if (marks && cards) void this.keep();
      // Phrases added to the review on this device, waiting to be sent.
      const here = new Set(this.reader.phrases.map((item) => item.id));
      for (const { phraseId, phrase } of await queuedWords())
        if (phrase && here.has(phraseId) && !this.cards.has(phraseId)) this.cards.set(phraseId, QUEUED);
    }
    for (const item of this.reader.phrases) this.paint(item.id);
  }

  /** The device's copy follows every answer of the server (not the cards still waiting in the queue). */
  private keep(): Promise<void> {
    return keepCopy('marks', this.reader.book, this.reader.chapterNo, {
      marks: [...this.marks].map(([phrase_id, mark]) => ({ phrase_id, mark })),
      cards: [...this.cards].filter(([, id]) => id !== QUEUED).map(([phrase_id, id]) => ({ id, phrase_id })),
    });
  }

  private dropEnded(): void {
    this.reader.phrases[this.ended]?.li.classList.remove('just-ended');
    this.ended = -1;
  }

  private afterPhrase(index: number): void {
    const item = this.reader.phrases[index];
    if (!item) return;
    this.reader.phrases[this.ended]?.li.classList.remove('just-ended');
    this.ended = index;
    this.group(item.li);
    item.li.classList.add('heard', 'just-ended');
    this.paint(item.id);
  }

  /** The buttons of a phrase, made the first time it ends. */
  private group(li: HTMLLIElement): HTMLElement {
    const found = li.querySelector<HTMLElement>('.phrase-marks');
    if (found) return found;
    const group = Object.assign(document.createElement('div'), { className: 'phrase-marks' });
    group.dataset.practice = '';
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', `Did you understand phrase ${li.id.replace('p-', '')}?`);
    const question = Object.assign(document.createElement('span'), {
      className: 'marks-question',
      textContent: 'Did you understand?',
    });
    question.setAttribute('aria-hidden', 'true');
    group.append(question);
    for (const { mark, label, key } of MARKS) {
      const button = Object.assign(document.createElement('button'), { type: 'button', textContent: label });
      button.dataset.mark = mark;
      button.setAttribute('aria-keyshortcuts', key);
      const hint = Object.assign(document.createElement('kbd'), { textContent: key });
      hint.setAttribute('aria-hidden', 'true');
      button.append(hint);
      group.append(button);
    }
    group.append(
      Object.assign(document.createElement('button'), {
        type: 'button',
        className: 'save-phrase',
        textContent: 'Add to review',
      }),
    );
    li.append(group);
    return group;
  }

  private paint(phraseId: number): void {
    const li = this.reader.phrases.find((item) => item.id === phraseId)?.li;
    if (!li) return;
    const mark = this.marks.get(phraseId);
    let badge = li.querySelector('.mark-badge');
    if (mark && !badge) {
      badge = Object.assign(document.createElement('span'), { className: 'mark-badge' });
      li.querySelector('.phrase')?.after(badge);
    }
    if (badge && !mark) badge.remove();
    if (badge && mark) {
      badge.textContent = LABEL[mark];
      badge.setAttribute('data-mark', mark);
      badge.setAttribute('aria-label', `Your mark: ${LABEL[mark]}`);
    }
    const group = li.querySelector('.phrase-marks');
    if (!group) return;
    for (const button of group.querySelectorAll<HTMLButtonElement>('button[data-mark]'))
      button.setAttribute('aria-pressed', String(button.dataset.mark === mark));
    const save = group.querySelector<HTMLButtonElement>('.save-phrase')!;
    // About the review, not about who made the card: a Lost or Not sure mark puts the phrase there too.
    const inReview = this.cards.has(phraseId);
    save.setAttribute('aria-pressed', String(inReview));
    save.textContent = inReview ? 'In review' : 'Add to review';
  }

  private signIn(): boolean {
    if (getToken()) return false;
    location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
    return true;
  }

  private async mark(phraseId: number, mark: Mark, button?: HTMLButtonElement): Promise<void> {
    if (this.signIn()) return;
    if (button) button.disabled = true;
    try {
      const { data } = await api<{ data: { mark: Mark; card_id: number | null } }>('user/marks', {
        method: 'PUT',
        body: { phrase_id: phraseId, mark },
      });
      this.marks.set(phraseId, data.mark);
      if (data.card_id) this.cards.set(phraseId, data.card_id);
      else this.cards.delete(phraseId);
      void this.keep();
      const position = this.reader.phrases.find((item) => item.id === phraseId)?.position;
      this.reader.announce(
        `Phrase ${position} marked ${LABEL[data.mark]}.${data.card_id && mark !== 'got' ? ' The phrase joins your review.' : ''}`,
      );
    } catch (error) {
      this.reader.announce(
        error instanceof ApiError && error.status === 0
          ? 'Marks need a connection: this one was not kept.'
          : error instanceof ApiError
            ? error.message
            : 'The mark could not be kept.',
      );
    } finally {
      if (button) button.disabled = false;
      this.paint(phraseId);
      button?.focus();
    }
  }

  private async toggleCard(phraseId: number, button: HTMLButtonElement): Promise<void> {
    if (this.signIn()) return;
    const id = this.cards.get(phraseId);
    button.disabled = true;
    try {
      if (id === QUEUED) {
        this.reader.announce(
          'The phrase waits to join your review: it can be taken out once you are back online.',
        );
      } else if (id) {
        await api(`user/words/${id}`, { method: 'DELETE' });
        this.cards.delete(phraseId);
        void this.keep();
        this.reader.announce('Phrase removed from your review.');
      } else {
        const answer = await sendOrQueue<{ data: { id: number } }>('word', 'user/words', 'POST', {
          phrase_id: phraseId,
          kind: 'phrase',
        });
        this.cards.set(phraseId, answer?.data.id ?? QUEUED);
        if (answer) void this.keep();
        this.reader.announce(
          answer
            ? 'The phrase joins your review.'
            : 'The phrase will join your review when you are back online.',
        );
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && id) this.cards.delete(phraseId);
      else this.reader.announce(error instanceof ApiError ? error.message : 'The phrase could not be saved.');
    } finally {
      button.disabled = false;
      this.paint(phraseId);
      button.focus();
    }
  }
}
