/**
 * How the reader draws a chapter: the phrases its script renders (a locked chapter's, the next chapter's),
 * in the markup the server renders for a free chapter (site/components/ReaderPlayer.astro), and the page
 * around them when play all moves on to the next chapter inside the page.
 */
import type { ReaderChapter, ReaderPhrase } from '../../../server/learning/reading/reading.dto';
import { iconSvg } from '../icons';

export interface Item {
  id: number;
  position: number;
  text: string;
  audio: string;
  durationMs: number;
  li: HTMLLIElement;
}

export function itemOf(li: HTMLLIElement): Item {
  return {
    id: Number(li.dataset.id),
    position: Number(li.id.replace('p-', '')),
    text: li.querySelector('.phrase')?.textContent ?? '',
    audio: li.dataset.audio ?? '',
    durationMs: Number(li.dataset.ms) || 0,
    li,
  };
}

/** The same markup the server renders for a free chapter (ReaderPlayer.astro). */
export function phraseItem(phrase: ReaderPhrase): HTMLLIElement {
  const li = document.createElement('li');
  li.id = `p-${phrase.position}`;
  Object.assign(li.dataset, {
    id: String(phrase.id),
    audio: phrase.audio,
    ms: String(phrase.duration_ms ?? ''),
  });
  const button = Object.assign(document.createElement('button'), { type: 'button', className: 'phrase' });
  button.textContent = phrase.phrase;
  li.append(button);
  if (phrase.glossary.length > 0) {
    const dl = Object.assign(document.createElement('dl'), { className: 'glossary' });
    for (const entry of phrase.glossary) {
      const row = document.createElement('div');
      const dd = Object.assign(document.createElement('dd'), { textContent: entry.meaning, lang: 'en' });
      row.append(Object.assign(document.createElement('dt'), { textContent: entry.term }), dd);
      dl.append(row);
    }
    li.append(dl);
  }
  return li;
}

/** After moving on inside the page: its address, title, heading, breadcrumb and chapter links follow. */
export function showChapter(reader: HTMLElement, chapter: ReaderChapter): void {
  const book = reader.dataset.book ?? '';
  const path = `/read/${book}/${chapter.chapter_no}`;
  history.replaceState(null, '', path);
  document.title = `${chapter.title} · ${chapter.book_title} · Lingonovel`;
  document.querySelector('link[rel="canonical"]')?.setAttribute('href', location.origin + path);
  const heading = document.querySelector('h1');
  heading?.replaceChildren(
    Object.assign(document.createElement('span'), {
      className: 'chapter-no',
      textContent: `Chapter ${chapter.chapter_no}`,
    }),
    ' ',
    Object.assign(document.createElement('span'), {
      textContent: chapter.title,
      lang: reader.dataset.lang ?? '',
    }),
  );
  reader.querySelector('offline-download')?.setAttribute('data-chapter', String(chapter.chapter_no));
  const crumb = document.querySelector('.breadcrumb [aria-current="page"]');
  if (crumb) crumb.textContent = `Chapter ${chapter.chapter_no}`;
  // As ReaderPlayer.astro draws them: the link is named "Chapter N", its chevron is decoration.
  const link = (no: number, rel: 'prev' | 'next') => {
    const a = Object.assign(document.createElement('a'), { href: `/read/${book}/${no}`, rel });
    const icon = iconSvg(rel === 'prev' ? 'chevronLeft' : 'chevronRight');
    a.innerHTML = rel === 'prev' ? icon : '';
    a.append(`Chapter ${no}`);
    if (rel === 'next') a.insertAdjacentHTML('beforeend', icon);
    return a;
  };
  reader
    .querySelector<HTMLElement>('nav.chapters')!
    .replaceChildren(
      ...(chapter.prev ? [link(chapter.prev, 'prev')] : []),
      ...(chapter.next ? [link(chapter.next, 'next')] : []),
    );
}
