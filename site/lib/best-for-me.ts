/**
 * "Best for me" on /books, for members (docs/word-status.md, "Best for me"): a sort the cached page cannot
 * offer (it is the same for everyone), added to the sort menu here. Chosen, it asks `GET user/books` with the
 * page's filters and `sort=coverage`, and draws its books in place of the page's, each with the member's
 * coverage; the address keeps `#best-for-me`, so a reload or a shared link chooses it again. Another sort
 * goes back to the page's own (books-browser.ts).
 */
import type { MemberBook } from '../../server/word-status/word-status.dto';
import { languageName } from '../../server/catalogue/languages';
import { api, ApiError } from './api';
import { bookLength } from './catalogue';
import { coverageText } from './coverage-badges';

const VALUE = 'coverage';
const HASH = '#best-for-me';
const PAGE = 24;

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
        textContent: coverageText(book.known_share, 1),
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
        const grid = document.querySelector<HTMLElement>('[data-browse-results] .book-grid');
        const cards = answer.data.map((book) => card(book, false));
        grid?.append(...cards);
        const next = moreButton(query, page + 1, answer.meta.total, shown + cards.length);
        if (next) button.replaceWith(next);
        else button.remove();
        // Focus moves to the first new book, so a keyboard or screen reader goes on from there.
        cards[0]?.querySelector('a')?.focus();
      })
      .catch((error: unknown) => {
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
  const query = bestQuery(form);
  if (!query) {
    heading.textContent = 'Best for me does not sort a search: clear the search, or choose another sort.';
    return;
  }
  history.replaceState(null, '', `${location.pathname}${location.search}${HASH}`);
  try {
    const answer = await api<{ data: MemberBook[]; meta: { total: number } }>(
      `user/books?${query.toString()}`,
      {
        passive: true,
      },
    );
    const grid = document.querySelector<HTMLElement>('[data-browse-results] .book-grid');
    grid?.replaceChildren(...answer.data.map((book, i) => card(book, i < 4)));
    document.querySelector('.best-for-me-more')?.remove();
    const more = moreButton(query, 1, answer.meta.total, answer.data.length);
    if (more) grid?.after(more);
    document.querySelector<HTMLElement>('[data-browse-results] .pager')?.setAttribute('hidden', '');
    heading.textContent = `${answer.meta.total} ${answer.meta.total === 1 ? 'book' : 'books'}, those you know best (about 95% of their words) first`;
    heading.focus();
  } catch (error) {
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
  // Before the book browser's own listener: this sort is not a page it can fetch.
  document.addEventListener(
    'change',
    (event) => {
      if (event.target !== sortMenu() || sortMenu()?.value !== VALUE) return;
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
