/**
 * Translations under the phrases (docs/practice.md, "The reader"). The page is one shared cached page
 * without them: the browser asks the chapter API for the learner's languages (translation-language.ts)
 * and shows, under each phrase, the one the shared rule picks (`chooseTranslation`, as review, /words and
 * dictation show it). Hidden by default; the "Translation" switch in the settings sheet (key T) shows them
 * all and is remembered per member on this browser; the current phrase's "Show translation" reveals that
 * one alone. No translation in the learner's languages: no switch, no key.
 */
import type { ReaderChapter, ReaderPhrase } from '../../../server/learning/reading/reading.dto';
import { api } from '../api';
import { getUser } from '../session';
import { askedTags, chooseTranslation, learnerLanguages } from '../translation-language';
import type { KeyOwner, ReaderHost } from './practice';

/** The chapter answer with `?translations=` (docs/practice.md, "Translations"). */
interface TranslatedChapter extends Omit<ReaderChapter, 'phrases'> {
  phrases: Array<ReaderPhrase & { translations?: Record<string, string> }>;
}

const rememberKey = () => `reader-translation:${getUser()?.id ?? 'visitor'}`;

export class Translations implements KeyOwner {
  private available = false;
  private readonly list: HTMLElement;
  private readonly toggle: HTMLButtonElement;

  constructor(private readonly reader: ReaderHost) {
    this.list = reader.querySelector<HTMLElement>('[data-phrases]')!;
    this.toggle = reader.querySelector<HTMLButtonElement>('[data-action="translation"]')!;
    this.toggle.addEventListener('click', () => this.setShown(!this.shown, true));
    this.list.addEventListener('click', (event) => {
      const button = (event.target as Element).closest<HTMLButtonElement>('button.show-translation');
      if (!button) return;
      const li = button.closest('li')!;
      const open = li.classList.toggle('translation-open');
      this.label(button, open);
    });
    reader.addEventListener('reader:chapter', () => void this.load());
    void this.load();
  }

  keys(): Record<string, () => void> {
    if (!this.available) return {};
    const flip = () => this.setShown(!this.shown, true);
    return { t: flip, T: flip };
  }

  private get shown(): boolean {
    return this.list.classList.contains('translations-on');
  }

  private async load(): Promise<void> {
    const language = this.reader.dataset.lang ?? '';
    const tags = await learnerLanguages(language);
    // Only the languages the chapter has (the page says which), sorted and with plain commas: the very
    // key the page cache keeps the answer under (server/http/query-rules.ts), so a free chapter's answer
    // is shared by every learner of those languages and served before Express. None: nothing to ask.
    const asked = askedTags(tags, (this.reader.dataset.translations ?? '').split(',').filter(Boolean));
    let chapter: TranslatedChapter | undefined;
    if (asked.length > 0) {
      const path = `guest/book/${encodeURIComponent(this.reader.book)}/chapter/${this.reader.chapterNo}`;
      chapter = await api<{ data: TranslatedChapter }>(`${path}?translations=${asked.join(',')}`)
        .then(({ data }) => data)
        .catch(() => undefined);
    }
    const byId = new Map(chapter?.phrases.map((phrase) => [phrase.id, phrase.translations ?? {}]));
    let any = false;
    for (const item of this.reader.phrases) {
      item.li.querySelector('.translation-row')?.remove();
      const chosen = chooseTranslation(byId.get(item.id), tags, language);
      if (!chosen) continue;
      any = true;
      item.li.querySelector('.phrase')?.after(this.row(item.position, chosen.language, chosen.text));
    }
    this.available = any;
    this.toggle.hidden = !any;
    // What was asked ("" for nothing): the sign the chapter's translations are settled, for the journeys.
    this.list.dataset.translationsAsked = asked.join(',');
    if (any) this.setShown(this.remembered(), false);
  }

  private row(position: number, tag: string, text: string): HTMLElement {
    const row = Object.assign(document.createElement('div'), { className: 'translation-row' });
    row.dataset.practice = '';
    const id = `translation-${position}`;
    const button = Object.assign(document.createElement('button'), {
      type: 'button',
      className: 'show-translation',
    });
    button.setAttribute('aria-controls', id);
    this.label(button, false);
    const p = Object.assign(document.createElement('p'), { className: 'translation', id, lang: tag });
    p.textContent = text;
    row.append(button, p);
    return row;
  }

  private label(button: HTMLButtonElement, open: boolean): void {
    button.textContent = open ? 'Hide translation' : 'Show translation';
    button.setAttribute('aria-expanded', String(open));
  }

  private setShown(shown: boolean, remember: boolean): void {
    this.list.classList.toggle('translations-on', shown);
    this.toggle.setAttribute('aria-pressed', String(shown));
    if (!remember) return;
    try {
      localStorage.setItem(rememberKey(), shown ? '1' : '0');
    } catch {
      // Not remembered: the choice lasts for this page.
    }
    this.reader.announce(shown ? 'Translations shown.' : 'Translations hidden.');
  }

  private remembered(): boolean {
    try {
      return localStorage.getItem(rememberKey()) === '1';
    } catch {
      return false;
    }
  }
}
