/**
 * A word's lookup in the reader (docs/practice.md, "Word lookups"): a bottom sheet on a phone, a popover
 * by the word on a laptop; both are the design system's modal <dialog class="sheet"> (site/lib/ui/sheet.ts),
 * so the browser keeps the focus inside, Escape closes it and the focus goes back to the phrase. A tap
 * outside it on another shown word opens that word's lookup at once (`onOutside`), as a tap on nothing
 * closes it. It opens
 * at once with the word and "Looking up…", and fills when the answer comes (site/lib/lookup/lookup-api.ts):
 * the phrase's glossary entry, the dictionaries' entries for the form and its lemmas, each dictionary's
 * attribution under its own entries, the narrator's clip of the phrase and Save. Fetched with import() on
 * the first pointer over a phrase (site/lib/reader/word-taps.ts): the reader's first script carries none
 * of it.
 */
import { ApiError } from '../api';
import { iconSvg } from '../icons';
import type { Item } from '../reader/chapter-view';
import type { ReaderHost } from '../reader/practice';
import { createSheet } from '../ui/sheet';
import { groupEntries, lookUp, meaningOf, type LookupAnswer, type LookupEntry } from './lookup-api';
import { clickedInside, placeLookup } from './lookup-place';

/**
 * A tap outside the open lookup: true when it was on a word, now being looked up (the lookup stays open);
 * false and the lookup closes, as a tap on a sheet's backdrop does.
 */
export type OutsideTap = (event: MouseEvent) => boolean;

const make = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}) =>
  Object.assign(document.createElement(tag), props);

export class LookupSheet {
  private readonly dialog: HTMLDialogElement;
  private readonly heading: HTMLHeadingElement;
  private readonly content = make('div', { className: 'lookup-content' });
  private readonly status = make('p', { className: 'visually-hidden' });
  private readonly play = make('button', { type: 'button', className: 'lookup-play' });
  /** "Play phrase N": the name is the visible text (WCAG 2.5.3). */
  private readonly playLabel = make('span');
  private readonly back = make('button', {
    type: 'button',
    className: 'lookup-back',
    textContent: 'All words',
  });
  /** The phrase shown, the word tapped (highlighted while its lookup is open). */
  private item: Item | undefined;
  private anchor: HTMLElement | undefined;
  private words: string[] = [];
  /** Counts what was shown: an answer for a word the sheet no longer shows is dropped. */
  private shown = 0;
  /** How each Save button of the open lookup shows its state (one card per word: a save moves it). */
  private paints: Array<() => void> = [];

  constructor(
    private readonly reader: ReaderHost,
    onOutside: OutsideTap = () => false,
  ) {
    const { dialog, body, heading } = createSheet('', { closeLabel: 'Close the lookup' });
    this.dialog = dialog;
    this.heading = heading;
    dialog.classList.add('lookup');
    // The page behind a modal dialog is inert: a tap on a word there lands on the dialog's backdrop. Caught
    // before the sheet's own backdrop listener (a capture listener on the target runs first), a tap on a
    // word opens its lookup in one tap instead of only closing this one.
    dialog.addEventListener(
      'click',
      (event) => {
        if (event.target === dialog && !clickedInside(dialog, event) && onOutside(event))
          event.stopImmediatePropagation();
      },
      { capture: true },
    );
    // A press on the backdrop leaves the focus where it is (inside the lookup), so Escape still gives it
    // back to what opened the lookup after a tap on another word.
    dialog.addEventListener('mousedown', (event) => event.target === dialog && event.preventDefault());
    this.status.setAttribute('role', 'status');
    this.play.innerHTML = iconSvg('play');
    this.play.append(this.playLabel);
    this.play.addEventListener('click', () => this.playPhrase());
    this.back.hidden = true;
    this.back.addEventListener('click', () => this.item && this.openList(this.item, this.words));
    const tools = make('div', { className: 'lookup-tools' });
    tools.append(this.back, this.play);
    body.append(tools, this.content, this.status);
    dialog.addEventListener('close', () => this.unmark());
    addEventListener('resize', () => this.place());
    // The member's cards may arrive after the lookup opened (a tap right after the page loaded).
    reader.glossary?.onChange(() => this.dialog.open && this.repaint());
  }

  private get lang(): string {
    return this.reader.dataset.lang ?? '';
  }

  /** Opens the lookup of a word (a tap, or a choice in the words list). `tapAt`: the tap's time. */
  openWord(item: Item, word: string, anchor?: HTMLElement, tapAt?: number): void {
    const shown = ++this.shown;
    this.item = item;
    this.unmark();
    // Chosen from the words list: the popover stays by the phrase.
    this.anchor = anchor ?? item.li.querySelector<HTMLElement>('.phrase') ?? undefined;
    anchor?.classList.add('looked-up');
    this.back.hidden = true;
    this.title(word);
    this.playLabel.textContent = `Play phrase ${item.position}`;
    this.content.replaceChildren(make('p', { className: 'lookup-note', textContent: 'Looking up…' }));
    this.content.setAttribute('aria-busy', 'true');
    this.show();
    if (tapAt !== undefined) this.measure(tapAt);
    lookUp(this.lang, word, item.id, { book: this.reader.book, chapterNo: this.reader.chapterNo }).then(
      (answer) => shown === this.shown && this.fill(word, answer),
      (error: unknown) => shown === this.shown && this.failed(word, error),
    );
  }

  /** The keyboard's way to the words: the phrase's words, each a button opening its lookup. */
  openList(item: Item, words: string[]): void {
    this.shown++;
    this.item = item;
    this.words = words;
    this.unmark();
    this.anchor = item.li.querySelector<HTMLElement>('.phrase') ?? undefined;
    this.heading.textContent = `Words of phrase ${item.position}`;
    this.heading.removeAttribute('lang');
    this.back.hidden = true;
    this.playLabel.textContent = `Play phrase ${item.position}`;
    const list = make('ul', { className: 'lookup-words' });
    for (const word of words) {
      const button = make('button', { type: 'button', textContent: word, lang: this.lang });
      button.addEventListener('click', () => {
        this.openWord(item, word);
        this.back.hidden = false;
        this.back.focus();
      });
      const li = make('li');
      li.append(button);
      list.append(li);
    }
    this.content.replaceChildren(list);
    this.content.removeAttribute('aria-busy');
    this.show();
    list.querySelector('button')?.focus();
  }

  /** The words of a phrase that cannot be shown (its text is hidden): the sheet says why. */
  openNote(item: Item, message: string): void {
    this.shown++;
    this.item = item;
    this.unmark();
    this.anchor = item.li.querySelector<HTMLElement>('.phrase') ?? undefined;
    this.heading.textContent = `Words of phrase ${item.position}`;
    this.heading.removeAttribute('lang');
    this.back.hidden = true;
    this.playLabel.textContent = `Play phrase ${item.position}`;
    this.content.replaceChildren(make('p', { className: 'lookup-note', textContent: message }));
    this.content.removeAttribute('aria-busy');
    this.show();
  }

  private title(word: string): void {
    this.heading.textContent = word;
    this.heading.lang = this.lang;
  }

  private show(): void {
    if (!this.dialog.open) this.dialog.showModal();
    this.place();
  }

  /** The time from the tap to the sheet on screen, as a performance measure (scripts and journeys read it). */
  private measure(tapAt: number): void {
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        try {
          performance.measure('lookup-open', { start: tapAt, end: performance.now() });
        } catch {
          // Not every browser takes a start time: nothing to report.
        }
      }),
    );
  }

  /** By the word, or as a bottom sheet (lookup-place.ts); again when the window or the content changes. */
  private place(): void {
    placeLookup(this.dialog, this.anchor);
  }

  private unmark(): void {
    this.reader.querySelector('.looked-up')?.classList.remove('looked-up');
  }

  private playPhrase(): void {
    const index = this.reader.phrases.findIndex((item) => item.id === this.item?.id);
    if (index >= 0) this.reader.playAt(index);
  }

  private fill(word: string, answer: LookupAnswer): void {
    this.paints = [];
    const parts: HTMLElement[] = [];
    // Offline, the glossary comes from the phrase on the page (the server matched it online).
    const glossary = answer.glossary ?? (answer.offline ? this.pageGlossary(word) : null);
    if (glossary) parts.push(this.glossarySection(glossary));
    for (const group of groupEntries(answer.entries))
      parts.push(this.entrySection(word, group, answer.target));
    if (parts.length === 0) {
      const empty = make('div', { className: 'lookup-empty' });
      empty.append(
        make('p', { textContent: `No entry for “${word}”.` }),
        make('p', {
          className: 'lookup-note',
          textContent: 'No dictionary here has it. An administrator can add dictionaries for this language.',
        }),
      );
      parts.push(empty);
    }
    const status = this.statusSection(word);
    if (status) parts.unshift(status);
    this.content.replaceChildren(...parts);
    this.content.removeAttribute('aria-busy');
    const found = glossary || answer.entries.length > 0;
    this.status.textContent = `Lookup of “${word}”: ${found ? 'done' : 'no entry'}.`;
    this.place();
  }

  private failed(word: string, error: unknown): void {
    const status = error instanceof ApiError ? error.status : -1;
    const message =
      status === 0
        ? 'You are offline: looking up a word needs the connection.'
        : status === 429
          ? `Too many lookups at once. Try again in ${(error as ApiError).retryAfter ?? 60} seconds.`
          : status === 403
            ? 'This chapter is not open to you, so its words cannot be looked up.'
            : status === 422
              ? `“${word}” cannot be looked up: ${(error as ApiError).message}`
              : 'The lookup could not be done. Please try again.';
    const box = make('div', { className: 'lookup-error' });
    box.setAttribute('role', 'alert');
    box.append(make('p', { textContent: message }));
    // The same question would get the same refusal: no Try again for it.
    if (status !== 422 && status !== 403) {
      const retry = make('button', { type: 'button', className: 'lookup-save', textContent: 'Try again' });
      retry.addEventListener('click', () => this.item && this.openWord(this.item, word, this.anchor));
      box.append(retry);
    }
    this.content.replaceChildren(box);
    this.content.removeAttribute('aria-busy');
    this.place();
  }

  /**
   * "I know this word" and "I don't know it yet", the member's word status (site/lib/reader/word-marks.ts,
   * docs/word-status.md): the pressed one is the status held. Members only.
   */
  private statusSection(word: string): HTMLElement | null {
    const marks = this.reader.wordMarks;
    // A number has no status.
    if (!marks || marks.statusOf(word) === null) return null;
    const section = make('div', { className: 'lookup-status' });
    const known = make('button', {
      type: 'button',
      className: 'lookup-save',
      textContent: 'I know this word',
    });
    const fresh = make('button', {
      type: 'button',
      className: 'lookup-save',
      textContent: 'I don’t know it yet',
    });
    this.keepPaint(() => {
      const held = marks.statusOf(word);
      known.setAttribute('aria-pressed', String(held === 'known'));
      fresh.setAttribute('aria-pressed', String(held !== 'known'));
    });
    known.addEventListener('click', () => this.toggle(known, () => marks.set(word, 'known')));
    fresh.addEventListener('click', () => this.toggle(fresh, () => marks.set(word, 'new')));
    section.append(known, fresh);
    return section;
  }

  /** The phrase's glossary entry whose term is the word, case aside (the offline lookup's glossary step). */
  private pageGlossary(word: string): { term: string; meaning: string } | null {
    const wanted = word.toLocaleLowerCase(this.lang || undefined);
    for (const row of this.item?.li.querySelectorAll('.glossary > div') ?? []) {
      const term = row.querySelector('dt')?.textContent ?? '';
      if (term.toLocaleLowerCase(this.lang || undefined) === wanted)
        return { term, meaning: row.querySelector('dd')?.firstChild?.textContent?.trim() ?? '' };
    }
    return null;
  }

  private glossarySection(entry: { term: string; meaning: string }): HTMLElement {
    const section = make('section', { className: 'lookup-section' });
    const dl = make('dl');
    dl.append(
      make('dt', { textContent: entry.term, lang: this.lang }),
      // The glossary's meanings are in the page's language (no lang of their own), as on the phrase.
      make('dd', { textContent: entry.meaning }),
    );
    const button = make('button', { type: 'button', className: 'lookup-save' });
    const phraseId = this.item!.id;
    const paint = () =>
      this.paintSave(button, entry.term, !!this.reader.glossary?.isSaved(phraseId, entry.term));
    this.keepPaint(paint);
    button.addEventListener('click', () =>
      this.toggle(button, () => this.reader.glossary?.toggleEntry(phraseId, entry.term)),
    );
    section.append(make('h3', { textContent: 'Glossary' }), dl, button);
    return section;
  }

  private entrySection(
    word: string,
    group: ReturnType<typeof groupEntries>[number],
    target: string,
  ): HTMLElement {
    const section = make('section', { className: 'lookup-section' });
    const heading = make('h3');
    heading.append(make('span', { textContent: group.headword, lang: this.lang }));
    if (
      group.headword.toLocaleLowerCase(this.lang || undefined) !==
      word.toLocaleLowerCase(this.lang || undefined)
    )
      heading.append(make('span', { className: 'lookup-form', textContent: ` (for “${word}”)` }));
    section.append(heading);
    for (const { dictionary, entries } of group.dictionaries) {
      const list = make('ul', { className: 'lookup-entries' });
      for (const entry of entries) list.append(this.entryItem(entry, target));
      const source = make('p', { className: 'lookup-attribution' });
      source.textContent = dictionary.attribution
        ? `${dictionary.name}. ${dictionary.attribution}`
        : dictionary.name;
      section.append(list, source);
    }
    return section;
  }

  /** An entry, its definition in the answer's target language (the learner's, docs/lookup.md). */
  private entryItem(entry: LookupEntry, target: string): HTMLLIElement {
    const li = make('li');
    const meaning = meaningOf(entry.definition);
    const definition = make('p', { className: 'lookup-definition', textContent: entry.definition });
    if (target) definition.lang = target;
    li.append(definition);
    const button = make('button', { type: 'button', className: 'lookup-save' });
    const phraseId = this.item!.id;
    const name = `“${entry.headword}”: ${meaning.split('\n')[0].slice(0, 40)}`;
    // Saved when the member's card for this word holds this entry's meaning.
    this.keepPaint(() =>
      this.paintSave(button, name, this.reader.glossary?.savedMeaning(phraseId, entry.headword) === meaning),
    );
    const chosen = { meaning, dictionaryId: entry.dictionary.id };
    button.addEventListener('click', () =>
      this.toggle(button, () => this.reader.glossary?.toggleEntry(phraseId, entry.headword, chosen)),
    );
    li.append(button);
    return li;
  }

  private keepPaint(paint: () => void): void {
    this.paints.push(paint);
    paint();
  }

  /** A Save pressed: the word saved, removed or given this meaning (site/lib/reader/glossary-marks.ts). */
  private toggle(button: HTMLButtonElement, change: () => Promise<string> | undefined): void {
    const changing = change();
    if (!changing) return;
    button.disabled = true;
    void changing.then((message) => {
      button.disabled = false;
      this.repaint();
      this.status.textContent = message;
    });
  }

  private paintSave(button: HTMLButtonElement, name: string, saved: boolean): void {
    button.textContent = saved ? 'Saved' : 'Save';
    button.setAttribute('aria-pressed', String(saved));
    button.setAttribute('aria-label', `Save ${name.startsWith('“') ? name : `“${name}”`}`);
  }

  /** Every Save button's state again, after a save changed which entry the card holds. */
  private repaint(): void {
    for (const paint of this.paints) paint();
  }
}
