import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './helpers/fixtures';
import { newAccount, signUpByApi } from './helpers/accounts';
import { adminApi, adminSession, useSession, type Session } from './helpers/admin';

/**
 * Issue 12, "Admin screens at every width": no admin page scrolls sideways, on a phone (375 px), a tablet
 * (768 px) or a laptop (1280 px); every table shows all its columns, Actions included, without scrolling
 * (on a phone its rows are cards); long texts are cut and show in full on hover or focus. The pages show
 * the demo catalogue, so every list has real rows; a member's listening fills the Readers panel.
 */

interface Book {
  id: number;
  book_code: string;
  title: string;
  description: string;
}
interface Chapter {
  id: number;
  chapter_no: number;
  title: string;
  phrase_count: number;
}
interface Phrase {
  id: number;
  phrase: string;
  dictionary: string;
}

/** The pages' worst case, found through the API before the tests run. */
interface WorstCase {
  book: Book;
  chapter: Chapter;
  phrase: Phrase;
}

interface AdminPage {
  name: string;
  url: (worst: WorstCase) => string;
  /** Resolves once the page's data is on screen. */
  ready: (page: Page, worst: WorstCase) => Promise<void>;
  /** The names of the page's tables that have an Actions column. */
  actionTables?: (worst: WorstCase) => string[];
}

const WIDTHS = [375, 768, 1280];

let session: Session;
let worst: WorstCase;

const longest = <T>(items: T[], size: (item: T) => number) =>
  items.reduce((best, item) => (size(item) > size(best) ? item : best));

/** The demo book with the longest texts, its longest chapter and that chapter's longest phrase. */
async function worstCase(request: APIRequestContext) {
  const books = await adminApi<{ data: Book[] }>(request, session, 'GET', 'admin/book');
  const book = longest(books.body.data, (item) => item.title.length + item.description.length);
  const listed = await adminApi<{ data: { chapters: Chapter[] } }>(
    request,
    session,
    'GET',
    `admin/chapter?book_id=${book.id}`,
  );
  const { chapters } = listed.body.data;
  const phrasesOf = async (chapter: Chapter) =>
    (
      await adminApi<{ data: { phrases: Phrase[] } }>(
        request,
        session,
        'GET',
        `admin/phrase?chapter_id=${chapter.id}`,
      )
    ).body.data.phrases;
  const chapter = longest(chapters, (item) => item.phrase_count);
  const phrases = await phrasesOf(chapter);
  const phrase = longest(phrases, (item) => item.phrase.length + item.dictionary.length);
  const first = chapters.reduce((a, b) => (b.chapter_no < a.chapter_no ? b : a));
  return { book, chapter, phrase, firstPhrases: await phrasesOf(first) };
}

/** A member hears the first chapter's first two phrases, one of them twice, so the Readers panel has rows. */
async function listen(request: APIRequestContext, phrases: Phrase[]) {
  const account = newAccount('widths');
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  const { token } = (await login.json()) as { token: string };
  const at = new Date().toISOString();
  const heard = [phrases[0], phrases[0], phrases[1]].map((phrase) => ({
    id: randomUUID(),
    phrase_id: phrase.id,
    ms: 2000,
    at,
  }));
  const response = await request.post('/api/v1/user/listening', {
    headers: { Authorization: `Bearer ${token}` },
    data: { events: heard },
  });
  expect(response.status(), await response.text()).toBe(200);
}

const settled = async (page: Page, heading: string | RegExp) => {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByText(/^(Checking your access|Loading)/)).toHaveCount(0);
};

const chaptersOf = ({ book }: WorstCase) => `Chapters of ${book.title}`;
const code = ({ book }: WorstCase) => encodeURIComponent(book.book_code);
const edited = (heading: string) => async (page: Page) => {
  await settled(page, heading);
  await expect(page.getByRole('textbox').first()).not.toHaveValue('');
};

const PAGES: AdminPage[] = [
  { name: 'Dashboard', url: () => '/admin/dashboard', ready: (page) => settled(page, 'Admin Dashboard') },
  {
    name: 'Book List',
    url: () => '/admin/books',
    ready: async (page) => {
      await settled(page, 'Books');
      await expect(page.getByRole('table', { name: 'Book List' }).getByRole('rowheader')).not.toHaveCount(0);
    },
    actionTables: () => ['Book List'],
  },
  { name: 'Add Book', url: () => '/admin/dashboard/create-book', ready: (page) => settled(page, 'Add Book') },
  { name: 'Edit Book', url: (w) => `/admin/books/edit/${code(w)}`, ready: edited('Edit Book') },
  {
    name: 'Book Detail',
    url: (w) => `/admin/book-detail/${code(w)}`,
    ready: async (page, w) => {
      await settled(page, w.book.title);
      await expect(page.getByRole('table', { name: chaptersOf(w) }).getByRole('rowheader')).not.toHaveCount(
        0,
      );
      await expect(page.getByRole('table', { name: 'Most replayed phrases' })).toBeVisible();
    },
    actionTables: (w) => [chaptersOf(w)],
  },
  {
    name: 'Chapter List',
    url: (w) => `/admin/chapter/list/${w.book.id}`,
    ready: async (page, w) => {
      await settled(page, 'Chapter List');
      await expect(page.getByRole('table', { name: chaptersOf(w) }).getByRole('rowheader')).not.toHaveCount(
        0,
      );
    },
    actionTables: (w) => [chaptersOf(w)],
  },
  {
    name: 'Add Chapter',
    url: (w) => `/admin/books/chapter/create/${w.book.id}`,
    ready: (page) => settled(page, 'Add Chapter'),
  },
  { name: 'Edit Chapter', url: (w) => `/admin/chapters/edit/${w.chapter.id}`, ready: edited('Edit Chapter') },
  {
    name: 'Phrase List',
    url: (w) => `/admin/chapter/phrase/list/${w.chapter.id}`,
    ready: async (page, w) => {
      await settled(page, 'Phrase List');
      await expect(page.getByRole('table', { name: 'Phrase List' }).getByRole('rowheader')).toHaveCount(
        w.chapter.phrase_count,
      );
    },
    actionTables: () => ['Phrase List'],
  },
  {
    name: 'Add Phrase',
    url: (w) => `/admin/chapter/phrase/create/${w.chapter.id}`,
    ready: (page) => settled(page, 'Add Phrase'),
  },
  {
    name: 'Edit Phrase',
    url: (w) => `/admin/chapter/phrase/edit/${w.phrase.id}`,
    ready: edited('Edit Phrase'),
  },
  {
    name: 'Import a book',
    url: () => '/admin/books/import',
    ready: (page) => settled(page, 'Import a book'),
  },
  {
    name: 'Import phrases',
    url: (w) => `/admin/chapter/phrase/import/${w.chapter.id}`,
    ready: (page) => settled(page, 'Import phrases'),
  },
];

test.beforeAll(async ({ request }) => {
  session = await adminSession(request);
  const found = await worstCase(request);
  worst = { book: found.book, chapter: found.chapter, phrase: found.phrase };
  await listen(request, found.firstPhrases);
});

test.beforeEach(async ({ page }) => {
  await useSession(page, session);
});

/** What sticks out past the right edge of the window, to name the culprit when a page is too wide. */
const overflowing = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth)
      .slice(0, 5)
      .map((element) => element.outerHTML.slice(0, 80)),
  );

/** The element's right edge, which must be inside the window and inside the box that would scroll it. */
async function expectInView(item: Locator, width: number, label: string) {
  const right = await item.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const scroller = element.closest('[role="region"]')?.getBoundingClientRect();
    return { right: box.right, limit: Math.min(window.innerWidth, scroller?.right ?? Infinity) };
  });
  expect
    .soft(right.right, `${label} ends inside the view at ${width} px`)
    .toBeLessThanOrEqual(right.limit + 0.5);
}

// One test per page and width: thirteen pages in one test outgrew its time limit on a loaded two-core machine.
for (const width of WIDTHS) {
  for (const admin of PAGES) {
    test(`${admin.name} fits ${width} px without scrolling sideways`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(admin.url(worst));
      await admin.ready(page, worst);

      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect
        .soft(
          scrollWidth,
          `${admin.name} at ${width} px is wider than the window: ${(await overflowing(page)).join(',')}`,
        )
        .toBeLessThanOrEqual(innerWidth);

      // No region (a table's scrolling box included) hides part of its content to the side.
      for (const region of await page.getByRole('region').all()) {
        const sizes = await region.evaluate((element) => ({
          name: element.getAttribute('aria-label') ?? element.id,
          scrollWidth: element.scrollWidth,
          clientWidth: element.clientWidth,
        }));
        expect
          .soft(sizes.scrollWidth, `${admin.name}: region ${sizes.name} scrolls sideways at ${width} px`)
          .toBeLessThanOrEqual(sizes.clientWidth);
      }

      // The cards of a phone are still a table to screen readers, and pass the same audit.
      if (width === 375 && admin.actionTables) {
        const { violations } = await new AxeBuilder({ page }).analyze();
        expect
          .soft(
            violations.map((violation) => violation.id),
            `${admin.name}: axe`,
          )
          .toEqual([]);
      }

      for (const name of admin.actionTables?.(worst) ?? []) {
        const table = page.getByRole('table', { name });
        const header = table.getByRole('columnheader', { name: 'Actions' });
        await expectInView(header, width, `${admin.name}: the Actions header`);
        const firstRow = table.getByRole('row').nth(1);
        const controls = await firstRow.getByRole('link').or(firstRow.getByRole('button')).all();
        expect(controls.length, `${admin.name}: the first row's links and buttons`).toBeGreaterThan(1);
        for (const control of controls) {
          await expect(control).toBeVisible();
          await expectInView(
            control,
            width,
            `${admin.name}: “${await control.innerText()}” of the first row`,
          );
        }
      }
    });
  }
}

test('the Book List cuts long texts and shows them in full on hover or focus', async ({ page }) => {
  const { book } = worst;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/books');
  const row = page.getByRole('table', { name: 'Book List' }).getByRole('row').filter({ hasText: book.title });
  const description = row.getByText(book.description);
  const cut = () => description.evaluate((element) => element.scrollHeight > element.clientHeight + 1);

  await expect(description).toBeVisible();
  expect(await cut(), 'the description is cut to a few lines').toBe(true);
  await description.hover();
  await expect.poll(cut, { message: 'hovering shows the whole description' }).toBe(false);

  await page.mouse.move(0, 0);
  await expect.poll(cut).toBe(true);
  await row.getByRole('link', { name: book.title, exact: true }).focus();
  await expect.poll(cut, { message: 'focusing the row shows the whole description' }).toBe(false);
});
