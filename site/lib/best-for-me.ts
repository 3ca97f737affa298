/**
 * "Best for me" on /books, for members (docs/word-status.md, "Best for me"): a sort the cached page cannot
 * offer (it is the same for everyone), added to the sort menu here. Chosen, it asks `GET user/books` with the
 * page's filters and `sort=coverage`, and draws its books in place of the page's, each with the member's
 * coverage; the address keeps `#best-for-me`, so a reload or a shared link chooses it again. Another sort
 * goes back to the page's own (books-browser.ts).
 */
import type { MemberBook } from '../../server/learning/word-status/word-status.dto';
import { languageName } from '../../server/content/catalogue/languages';
import { api, ApiError } from './api';
import { bookLength } from './catalogue';
import { coverageText } from './coverage-badges';

const VALUE = 'coverage';
const HASH = '#best-for-me';
const PAGE = 24;
/** Counts the draws: an answer that comes after another sort or filter was chosen is dropped. */
let drawing = 0;
const current = (draw: number) => draw === drawing && sortMenu()?.value === VALUE;

function sortMenu(): HTMLSelectElement | null {
  return document.querySelector<HTMLSelectElement>('#books-sort');
}

/** The option, added to the menu (again after the browser swapped the filters in). */
function offer(): void {
  const menu = sortMenu();
  if (!menu || menu.querySelector(`option[value="${VALUE}"]`)) return;
  menu.append(new Option('Best for me', VALUE));
}

/** A card as BookCard.astro draws it, with the member's coverage. */
function card(book: MemberBook, eager: boolean): HTMLLIElement {
  const li = document.createElement('li');
  li.className = 'book-card';
  li.dataset.coverageOf = book.book_code;
  const img = Object.assign(document.createElement('img'), {
    src: book.image_path,
    srcset: book.image_srcset
      .split(', ')
      .filter((candidate) => !candidate.endsWith(' 960w'))
      .join(', '),
    sizes: '(min-width: 568px) 220px, 45vw',
    width: 640,
    height: 960,
    alt: '',
    loading: eager ? 'eager' : 'lazy',
  });
  const title = document.createElement('h3');
  const link = Object.assign(document.createElement('a'), {
    href: `/book-detail/${book.book_code}`,
    textContent: book.title,
  });
  if (book.language) link.lang = book.language;
  title.append(link);
  const author = Object.assign(document.createElement('p'), { textContent: book.author });
  const facts = Object.assign(document.createElement('p'), {
    textContent: [languageName(book.language), book.cefr, bookLength(book.hours, book.minutes)]
      .filter(Boolean)
      .join(' · '),
  });
  li.append(img, title, author, facts);
  if (book.known_share > 0) {
    li.append(
      Object.assign(document.createElement('p'), {
        className: 'book-coverage',
        textContent: coverageText(book.known_share, book.unknown_words),
      }),
    );
    li.dataset.covered = 'true';
  }
  return li;
}

/** The query of the member's best books for the page's filters, or null for a search (it cannot be sorted so). */
function bestQuery(form: HTMLFormElement): URLSearchParams | null {
  const searched = new FormData(form).get('q');
  if (typeof searched === 'string' && searched.trim()) return null;
  const query = new URLSearchParams({ sort: VALUE, per_page: String(PAGE) });
  for (const name of ['lang', 'cefr', 'difficulty']) {
    const value = new FormData(form).get(name);
    if (typeof value === 'string' && value) query.set(name, value);
  }
  return query;
}

/** "More books": the next page of the member's best, added below the ones shown. */
function moreButton(
  query: URLSearchParams,
  page: number,
  total: number,
  shown: number,
  draw: number,
): HTMLButtonElement | null {
  if (shown >= total) return null;
  const button = Object.assign(document.createElement('button'), {
    type: 'button',
    className: 'button best-for-me-more',
    textContent: `More books (${total - shown} left)`,
  });
  button.addEventListener('click', () => {
    button.disabled = true;
    query.set('page', String(page + 1));
    api<{ data: MemberBook[]; meta: { total: number } }>(`user/books?${query.toString()}`, { passive: true })
      .then((answer) => {
        if (!current(draw)) return;
        const grid = document.querySelector<HTMLElement>('[data-browse-results] .book-grid');
        const cards = answer.data.map((book) => card(book, false));
        grid?.append(...cards);
        const next = moreButton(query, page + 1, answer.meta.total, shown + cards.length, draw);
        if (next) button.replaceWith(next);
        else button.remove();
        // Focus moves to the first new book, so a keyboard or screen reader goes on from there.
        cards[0]?.querySelector('a')?.focus();
      })
      .catch((error: unknown) => {
        if (!current(draw)) return;
        button.disabled = false;
        button.textContent =
          error instanceof ApiError ? error.message : 'More books could not be loaded: try again.';
      });
  });
  return button;
}

/** The member's best books for the page's filters, drawn in place of the page's. */
async function show(): Promise<void> {
  const form = document.querySelector<HTMLFormElement>('[data-browse-form]');
  const heading = document.querySelector<HTMLElement>('[data-browse-results] h2');
  if (!form || !heading) return;
  const draw = ++drawing;
  const query = bestQuery(form);
  if (!query) {
    heading.textContent = 'Best for me does not sort a search: clear the search, or choose another sort.';
    return;
  }
  // The address says the filters chosen, so a reload or a shared link shows the same books.
  const filters = new URLSearchParams(query);
  for (const name of ['sort', 'per_page']) filters.delete(name);
  history.replaceState(
    null,
    '',
    `${location.pathname}${filters.size ? `?${filters.toString()}` : ''}${HASH}`,
  );
  try {
    const answer = await api<{ data: MemberBook[]; meta: { total: number } }>(
      `user/books?${query.toString()}`,
      {
        passive: true,
      },
    );
    if (!current(draw)) return;
    const grid = document.querySelector<HTMLElement>('[data-browse-results] .book-grid');
    grid?.replaceChildren(...answer.data.map((book, i) => card(book, i < 4)));
    document.querySelector('.best-for-me-more')?.remove();
    const more = moreButton(query, 1, answer.meta.total, answer.data.length, draw);
    if (more) grid?.after(more);
    document.querySelector<HTMLElement>('[data-browse-results] .pager')?.setAttribute('hidden', '');
    heading.textContent = `${answer.meta.total} ${answer.meta.total === 1 ? 'book' : 'books'}, those you know best (about 95% of their words) first`;
    heading.focus();
  } catch (error) {
    if (!current(draw)) return;
    heading.textContent = error instanceof ApiError ? error.message : 'Your best books could not be loaded.';
  }
}

export function bestForMe(): void {
  offer();
  document.addEventListener('lingonovel:books-shown', () => {
    // The browser drew a page of its own: the best books' "More books" goes with them.
    document.querySelector('.best-for-me-more')?.remove();
    offer();
  });
  // Before the book browser's own listeners: this sort is not a page it can fetch. While it is chosen, a
  // filter changed draws the best books for the new filters; a search goes back to the page's own sort
  // (a search cannot be sorted so) and is the browser's.
  document.addEventListener(
    'change',
    (event) => {
      const control = event.target;
      if (!(control instanceof HTMLSelectElement) || !control.form?.matches('[data-browse-form]')) return;
      if (sortMenu()?.value !== VALUE) return;
      event.stopPropagation();
      void show();
    },
    { capture: true },
  );
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      const menu = sortMenu();
      if (!(form instanceof HTMLFormElement) || !form.matches('[data-browse-form]') || menu?.value !== VALUE)
        return;
      const searched = new FormData(form).get('q');
      if (typeof searched === 'string' && searched.trim()) {
        menu.selectedIndex = 0;
        drawing++;
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      void show();
    },
    { capture: true },
  );
  if (location.hash === HASH) {
    const menu = sortMenu();
    if (menu) menu.value = VALUE;
    void show();
  }
}
