import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './helpers/fixtures';
import { newAccount, signIn, signUpByApi } from './helpers/accounts';
import { adminApi, adminSession, media, uniqueTitle, useSession, type Session } from './helpers/admin';

const GENERIC_ERROR = 'Something went wrong. Please try again later.';

interface Listed {
  data: { id: number; book_code: string; title: string; chapters: { id: number; phrase_count: number }[] };
}

let session: Session;

test.beforeAll(async ({ request }) => {
  session = await adminSession(request);
});

/** A demo chapter with a few phrases, for checks that change nothing. */
async function demoChapter(request: APIRequestContext): Promise<number> {
  const books = await adminApi<{ data: { id: number }[] }>(request, session, 'GET', 'admin/book');
  for (const book of books.body.data) {
    const chapters = await adminApi<Listed>(request, session, 'GET', `admin/chapter?book_id=${book.id}`);
    const chapter = chapters.body.data.chapters.find((item) => item.phrase_count >= 3);
    if (chapter) return chapter.id;
  }
  throw new Error('The demo catalogue has no chapter with three phrases');
}

test.describe('as an administrator', () => {
  test.beforeEach(async ({ page }) => {
    await useSession(page, session);
  });

  test('the dashboard shows the catalogue in numbers', async ({ page }) => {
    const stats = await adminApi<{ data: Record<string, number> }>(
      page.request,
      session,
      'GET',
      'admin/stats',
    );
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    const numbers = page.getByRole('region', { name: 'The catalogue in numbers' });
    await expect(numbers.getByRole('definition')).toHaveCount(4);
    for (const [key, label] of [
      ['books', 'Books'],
      ['chapters', 'Chapters'],
      ['phrases', 'Phrases'],
      ['members', 'Members'],
    ]) {
      await expect(numbers).toContainText(`${label}${stats.body.data[key].toLocaleString('en-US')}`);
    }
    await page.getByRole('main').getByRole('link', { name: 'Books' }).click();
    await expect(page).toHaveURL(/\/admin\/books$/);
  });

  test('the Book List searches, filters and pages on the server, and its URL keeps them', async ({
    page,
  }) => {
    const table = page.getByRole('table', { name: 'Book List' });
    const titles = table.getByRole('rowheader');
    const all = await adminApi<{ data: { title: string }[]; meta: { total: number } }>(
      page.request,
      session,
      'GET',
      'admin/book?per_page=4',
    );
    const pages = Math.ceil(all.body.meta.total / 4);

    // Pages: four books a page (per_page from the URL), newest first, with Previous and Next.
    await page.goto('/admin/books?per_page=4');
    await expect(titles).toHaveText(all.body.data.map((book) => book.title));
    await expect(page.getByText(`${all.body.meta.total} books, page 1 of ${pages}`)).toBeVisible();
    const pager = page.getByRole('navigation', { name: 'Pages of the Book List' });
    await expect(pager.getByRole('link', { name: 'Previous page' })).toHaveCount(0);
    await pager.getByRole('link', { name: 'Next page' }).click();
    await expect(page).toHaveURL(/\/admin\/books\?page=2&per_page=4$/);
    await expect(pager).toContainText(`Page 2 of ${pages}`);
    const second = await adminApi<{ data: { title: string }[] }>(
      page.request,
      session,
      'GET',
      'admin/book?page=2&per_page=4',
    );
    await expect(titles).toHaveText(second.body.data.map((book) => book.title));
    await page.reload();
    await expect(titles).toHaveText(second.body.data.map((book) => book.title));
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\/books\?per_page=4$/);
    await expect(titles).toHaveText(all.body.data.map((book) => book.title));

    // Filters: German books at C1 (the demo's Die Kartografin), each choice a new URL and back to page 1.
    await page.goto('/admin/books?page=2');
    // The URL changes at once and the list when the server answers: compare with that answer, never with
    // a count read from the list while it may still be the old one.
    const german = await adminApi<{ data: { title: string }[] }>(
      page.request,
      session,
      'GET',
      'admin/book?lang=de',
    );
    expect(german.body.data.length).toBeGreaterThan(0);
    await page.getByLabel('Language').selectOption('de');
    await expect(page).toHaveURL(/\/admin\/books\?lang=de$/);
    await expect(titles).toHaveText(german.body.data.map((book) => book.title));
    await expect(table.getByRole('cell', { name: 'German', exact: true })).toHaveCount(
      german.body.data.length,
    );
    await page.getByLabel('CEFR level').selectOption('C1');
    await expect(page).toHaveURL(/\/admin\/books\?lang=de&cefr=C1$/);
    await expect(titles).toContainText(['Die Kartografin']);
    await expect(page.getByLabel('Language')).toHaveValue('de');
    await expect(page.getByLabel('Language').getByRole('option', { name: /^German \(\d+\)$/ })).toHaveCount(
      1,
    );

    // The search: accents and case ignored, by word starts, typed without pressing anything.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/admin\/books$/);
    await page.getByLabel('Search books').fill('LEUCHTTURMWARTER');
    await expect(page).toHaveURL(/\/admin\/books\?q=LEUCHTTURMWARTER$/);
    await expect(titles).toHaveText(['Der Leuchtturmwärter']);
    await page.getByLabel('Search books').fill('no such book anywhere');
    await expect(table).toContainText('No book matches this search and these filters.');
    await page.getByRole('button', { name: 'Show every book' }).click();
    await expect(page).toHaveURL(/\/admin\/books$/);
    await expect(page.getByLabel('Search books')).toHaveValue('');
    await expect(titles).not.toHaveCount(0);

    // Back goes through the search, the filters and the pages as they were.
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\/books\?q=no\+such\+book\+anywhere$/);
    await expect(page.getByLabel('Search books')).toHaveValue('no such book anywhere');
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\/books$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\/books\?lang=de&cefr=C1$/);
    await expect(page.getByLabel('CEFR level')).toHaveValue('C1');
    await expect(titles).toContainText(['Die Kartografin']);
  });

  test('a bad value in the Book List URL shows the server message', async ({ page }) => {
    await page.goto('/admin/books?page=0');
    await expect(page.getByRole('table', { name: 'Book List' }).getByRole('cell')).toHaveText(
      'The page must be a whole number from 1 to 10000.',
    );
  });

  test('/admin/dashboard/table leads to the Book List', async ({ page }) => {
    await page.goto('/admin/dashboard/table');
    await expect(page).toHaveURL(/\/admin\/books$/);
    await expect(page.getByRole('table', { name: 'Book List' })).toBeVisible();
  });

  test('a file the server refuses shows its message in red above the form, and under the field', async ({
    page,
  }) => {
    await page.goto('/admin/dashboard/create-book');
    await page.getByLabel('Title').fill(uniqueTitle('Refused Book'));
    await page.getByLabel('Author').fill('Someone');
    await page.getByLabel('Narrated by').fill('Someone Else');
    await page.getByLabel('Language').fill('de');
    await page.getByLabel('Hours').fill('1');
    await page.getByLabel('Minutes').fill('5');
    await page.getByLabel('Description').fill('Never saved.');
    // An HTML page named .png: the browser sends it, the server reads its bytes and refuses it.
    await page.getByLabel('Cover image').setInputFiles(media.notAnImage);
    await page.getByLabel('Sample audio').setInputFiles(media.clip);
    await page.getByLabel('Sample text').fill('Nothing.');
    const [answer] = await Promise.all([
      page.waitForResponse('**/api/v1/admin/book'),
      page.getByRole('button', { name: 'Add Book' }).click(),
    ]);
    expect(answer.status()).toBe(422);
    const body = (await answer.json()) as { message: string; errors: Record<string, string[]> };
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(body.message);
    await expect(alert).toBeFocused();
    await expect(alert).toHaveCSS('color', 'rgb(185, 28, 28)');
    const cover = page.getByLabel('Cover image');
    await expect(cover).toHaveAttribute('aria-invalid', 'true');
    await expect(cover).toHaveAccessibleDescription(
      new RegExp(`${body.errors.book_image[0].replace('.', '\\.')}$`),
    );
    await alert.getByRole('link', { name: /^Cover image:/ }).click();
    await expect(cover).toBeFocused();
    // What was typed stays.
    await expect(page.getByLabel('Author')).toHaveValue('Someone');
    await expect(page.getByRole('button', { name: 'Add Book' })).toBeEnabled();
  });

  test('an oversize file shows the server 413 message; other failures the generic one', async ({ page }) => {
    const chapterId = await demoChapter(page.request);
    const phrases = await adminApi<{ data: { phrases: { id: number }[] } }>(
      page.request,
      session,
      'GET',
      `admin/phrase?chapter_id=${chapterId}`,
    );
    const phraseId = phrases.body.data.phrases[0].id;
    const tooBig = 'The line audio must not be larger than 10 MB.';
    let status = 413;
    await page.route(`**/api/v1/admin/phrase/${phraseId}?_method=put`, (route) =>
      route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ message: tooBig }) }),
    );
    await page.goto(`/admin/chapter/phrase/edit/${phraseId}`);
    await expect(page.getByLabel('Current audio')).toHaveAttribute('preload', 'metadata');
    await page.getByLabel('New MP3 for phrase (optional)').setInputFiles(media.clip);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('alert')).toHaveText(tooBig);

    status = 500;
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('alert')).toHaveText(GENERIC_ERROR);
  });

  test('lists show the server message of a 404 in their empty row', async ({ page }) => {
    await page.route('**/api/v1/admin/book', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{"message":"No books found"}' }),
    );
    await page.goto('/admin/books');
    await expect(page.getByRole('table', { name: 'Book List' }).getByRole('cell')).toHaveText(
      'No books found',
    );

    const unknown = await adminApi<{ message: string }>(
      page.request,
      session,
      'GET',
      'admin/chapter?book_id=999999',
    );
    expect(unknown.status).toBe(404);
    await page.goto('/admin/chapter/list/999999');
    await expect(page.getByRole('table', { name: 'Chapters' }).getByRole('cell')).toHaveText(
      unknown.body.message,
    );

    const noChapter = await adminApi<{ message: string }>(
      page.request,
      session,
      'GET',
      'admin/phrase?chapter_id=999999',
    );
    await page.goto('/admin/chapter/phrase/list/999999');
    await expect(page.getByRole('table', { name: 'Phrase List' }).getByRole('cell')).toHaveText(
      noChapter.body.message,
    );
  });

  test('a reorder the server refuses puts the previous order back and says so', async ({ page }) => {
    const chapterId = await demoChapter(page.request);
    await page.route(`**/api/v1/admin/chapter/${chapterId}/phrase-order`, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' }),
    );
    await page.goto(`/admin/chapter/phrase/list/${chapterId}`);
    const headers = page.getByRole('table', { name: 'Phrase List' }).getByRole('rowheader');
    await expect(headers.first()).toBeVisible();
    const before = await headers.allTextContents();

    await page.getByRole('button', { name: 'Move phrase 1 down' }).click();
    await expect(headers.nth(1)).toHaveText(before[0]);
    await expect(page.getByRole('alert')).toHaveText(GENERIC_ERROR);
    expect(await headers.allTextContents()).toEqual(before);
  });

  // One test per screen: ten audits in one test outgrew its time limit on a loaded two-core machine, and
  // a failure now names the screen.
  test.describe('the admin screens pass an accessibility audit', () => {
    let book: { id: number; book_code: string };
    let chapterId: number;

    test.beforeAll(async ({ request }) => {
      const books = await adminApi<{ data: { id: number; book_code: string }[] }>(
        request,
        session,
        'GET',
        'admin/book',
      );
      book = books.body.data[0];
      chapterId = await demoChapter(request);
    });

    async function audit(page: Page) {
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    }

    test('dashboard', async ({ page }) => {
      await page.goto('/admin/dashboard');
      await expect(page.getByRole('region', { name: 'The catalogue in numbers' })).toBeVisible();
      await audit(page);
    });

    test('Book List', async ({ page }) => {
      await page.goto('/admin/books');
      await expect(
        page.getByRole('table', { name: 'Book List' }).getByRole('rowheader').first(),
      ).toBeVisible();
      await audit(page);
    });

    test('Book List, confirming a deletion', async ({ page }) => {
      await page.goto('/admin/books');
      await page
        .getByRole('button', { name: /^Delete / })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await audit(page);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
    });

    const screens: Array<[string, () => string]> = [
      ['Edit Book', () => `/admin/books/edit/${book.book_code}`],
      ['book detail', () => `/admin/book-detail/${book.book_code}`],
      ['Chapter List', () => `/admin/chapter/list/${book.id}`],
      ['Add Chapter', () => `/admin/books/chapter/create/${book.id}`],
      ['Phrase List', () => `/admin/chapter/phrase/list/${chapterId}`],
      ['Add Phrase', () => `/admin/chapter/phrase/create/${chapterId}`],
    ];
    for (const [name, path] of screens) {
      test(name, async ({ page }) => {
        await page.goto(path());
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByText(/^(Checking your access|Loading)/)).toHaveCount(0);
        await audit(page);
      });
    }

    test('Add Book names every problem at once, the files by their content too', async ({ page }) => {
      await page.goto('/admin/dashboard/create-book');
      await page.getByLabel('Author').fill('Someone');
      await page.getByLabel('Minutes').fill('75');
      await page.getByLabel('Cover image').setInputFiles(media.notAnImage);
      await page.getByRole('button', { name: 'Add Book' }).click();
      const alert = page.getByRole('alert');
      await expect(alert).toBeFocused();
      const links = alert.getByRole('link');
      // The server's one answer, and the form's own rule (the language): every field but the author.
      await expect(links).toHaveText([
        'Title: The title field is required.',
        'Narrated by: The narrated by field is required.',
        'Language: The language field is required.',
        'Hours: The hours field is required.',
        'Minutes: The minutes must be between 0 and 59.',
        'Description: The description field is required.',
        'Cover image: The cover must be a JPEG, PNG or WebP image.',
        'Sample audio: The sample audio field is required.',
        'Sample text: The sample text field is required.',
      ]);
      await audit(page);
    });
  });
});

test('a member who opens the Book List is sent to /401', async ({ page, request }) => {
  const account = newAccount('admin-guard');
  await signUpByApi(request, account);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const path of ['/admin/books', '/admin/chapter/phrase/list/1']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/401$/);
    await expect(page.getByRole('heading', { name: 'This area is for administrators' })).toBeVisible();
  }
});
