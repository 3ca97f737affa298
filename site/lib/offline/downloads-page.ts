/**
 * /downloads: what is on this device, by book (book, chapters, size, date), with the storage used and
 * available; deletes one chapter or a whole book.
 */
import { getUser } from '../session';
import { canDownload, deleteDownload, listDownloads, type DownloadRecord } from './downloads';
import { DOWNLOADS_CHANGED } from './member';
import { readerPath } from './names';
import { forgetReviewCards } from './review-cards';

const MB = 1024 * 1024;
const page = document.querySelector<HTMLElement>('.downloads')!;
const part = <T extends HTMLElement>(name: string) => page.querySelector<T>(`[data-${name}]`)!;

const megabytes = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

async function showStorage(): Promise<void> {
  const estimate = await navigator.storage?.estimate?.().catch(() => undefined);
  part('storage').textContent =
    estimate?.usage !== undefined && estimate.quota !== undefined
      ? `Using ${megabytes(estimate.usage)} on this device, of ${megabytes(estimate.quota)} available to this site.`
      : '';
}

function chapterRow(record: DownloadRecord): HTMLLIElement {
  const date =
    record.at === null
      ? 'not finished: download it again to complete it'
      : new Date(record.at).toLocaleDateString();
  const remove = element('button', { type: 'button', className: 'button', textContent: 'Delete' });
  remove.setAttribute('aria-label', `Delete chapter ${record.chapter} of ${record.bookTitle}`);
  remove.addEventListener('click', () => void removeAll([record], `Chapter ${record.chapter} deleted.`));
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
      element('span', { className: 'meta', textContent: `${megabytes(record.bytes)} · ${date}` }),
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
      const total = chapters.reduce((sum, r) => sum + r.bytes, 0);
      const removeBook = element('button', {
        type: 'button',
        className: 'button',
        textContent: 'Delete the book',
      });
      removeBook.setAttribute('aria-label', `Delete every chapter of ${bookTitle}`);
      removeBook.addEventListener('click', () => {
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
          textContent: `${chapters.length} chapter${chapters.length === 1 ? '' : 's'} · ${megabytes(total)}`,
        }),
        element('ul', {}, ...chapters.map(chapterRow)),
        removeBook,
      );
    }),
  );
  await showStorage();
}

if (canDownload()) {
  void render();
  addEventListener(DOWNLOADS_CHANGED, () => void render());
} else part('unsupported').hidden = false;
