/**
 * /downloads: what is on this device, by book (book, chapters, size, date); deletes one chapter or a whole
 * book. The sizes add up: a chapter's is what its download stored (downloads.ts), a book's the sum of its
 * chapters, and "Downloads" the sum of the books. What the whole site stores (the browser's estimate:
 * pages visited, the app's own files, downloads) is said apart, as such.
 */
import { getUser } from '../session';
import { canDownload, deleteDownload, listDownloads, type DownloadRecord } from './downloads';
import { DOWNLOADS_CHANGED } from './member';
import { readerPath } from './names';
import { forgetReviewCards } from './review-cards';
import { formatSize } from './size';

const page = document.querySelector<HTMLElement>('.downloads')!;
const part = <T extends HTMLElement>(name: string) => page.querySelector<T>(`[data-${name}]`)!;

const sum = (records: DownloadRecord[]) => records.reduce((total, r) => total + r.bytes, 0);

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** The downloads' total, then what the whole site stores here (the browser's own figure, origin-wide). */
async function showStorage(records: DownloadRecord[]): Promise<void> {
  part('total').textContent = records.length ? `Downloads: ${formatSize(sum(records))}` : '';
  const estimate = await navigator.storage?.estimate?.().catch(() => undefined);
  part('storage').textContent =
    estimate?.usage !== undefined && estimate.quota !== undefined
      ? `All of this site on this device (downloads, pages visited, the app itself): ${formatSize(estimate.usage)}, of ${formatSize(estimate.quota)} available.`
      : '';
}

/** A quiet button that deletes: outlined, in the error colour (downloads.astro). */
function deleteButton(text: string, label: string, onClick: () => void): HTMLButtonElement {
  const button = element('button', {
    type: 'button',
    className: 'button-secondary danger',
    textContent: text,
  });
  button.setAttribute('aria-label', label);
  button.addEventListener('click', onClick);
  return button;
}

function chapterRow(record: DownloadRecord): HTMLLIElement {
  const date =
    record.at === null
      ? 'not finished: download it again to complete it'
      : new Date(record.at).toLocaleDateString();
  const remove = deleteButton(
    'Delete',
    `Delete chapter ${record.chapter} of ${record.bookTitle}`,
    () => void removeAll([record], `Chapter ${record.chapter} deleted.`),
  );
  return element(
    'li',
    {},
    element(
      'span',
      {},
      element('a', {
        href: readerPath(record.book, record.chapter),
        textContent: `Chapter ${record.chapter}: ${record.title}`,
      }),
      ' ',
      element('span', { className: 'meta', textContent: `${formatSize(record.bytes)} · ${date}` }),
    ),
    remove,
  );
}

async function removeAll(records: DownloadRecord[], said: string): Promise<void> {
  for (const record of records) await deleteDownload(record);
  part('live').textContent = said;
  await render();
}

async function render(): Promise<void> {
  const member = getUser()?.id ?? null;
  const records = (await listDownloads()).filter((r) => r.member === null || r.member === member);
  const books = new Map<string, DownloadRecord[]>();
  for (const record of records.sort((a, b) => a.book.localeCompare(b.book) || a.chapter - b.chapter))
    books.set(record.book, [...(books.get(record.book) ?? []), record]);
  part('empty').hidden = books.size > 0;
  part('books').replaceChildren(
    ...[...books.values()].map((chapters) => {
      const { book, bookTitle } = chapters[0];
      const removeBook = deleteButton('Delete the book', `Delete every chapter of ${bookTitle}`, () => {
        // The book's review cards kept for this member go with it.
        if (member !== null) void forgetReviewCards(member, book);
        void removeAll(chapters, `${bookTitle} deleted.`);
      });
      return element(
        'section',
        { className: 'book-downloads' },
        element(
          'h2',
          {},
          element('a', { href: `/book-detail/${encodeURIComponent(book)}`, textContent: bookTitle }),
        ),
        element('p', {
          className: 'meta',
          textContent: `${chapters.length} chapter${chapters.length === 1 ? '' : 's'} · ${formatSize(sum(chapters))}`,
        }),
        element('ul', {}, ...chapters.map(chapterRow)),
        removeBook,
      );
    }),
  );
  await showStorage(records);
}

if (canDownload()) {
  void render();
  addEventListener(DOWNLOADS_CHANGED, () => void render());
} else part('unsupported').hidden = false;
