import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { adminSession, media, type Session } from './helpers/admin';
import { expect, test } from './helpers/fixtures';

/**
 * The catalogue (/books) and a language's page (/learn/{language}): a visitor finds a book by language,
 * level and words, pages through the results and opens one, with JavaScript (the page updates in place)
 * and without (a form and links), on a phone and on a desktop.
 */

/** One page of Swedish A1 books and one more, each with the word the visitor searches for. */
const TITLES = Array.from({ length: 25 }, (_, i) => `Fjällstugan ${String(i + 1).padStart(2, '0')}`);
const NEWEST = TITLES[TITLES.length - 1];
const OLDEST = TITLES[0];

let session: Session;
const codes: string[] = [];

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  session = await adminSession(request);
  const cover = readFileSync(media.coverJpg);
  const clip = readFileSync(media.clip);
  for (const title of TITLES) {
    const response = await request.post('/api/v1/admin/book', {
      headers: { Authorization: `Bearer ${session.token}` },
      multipart: {
        title,
        author: 'Astrid Berg',
        narrated_by: 'Nils Holm',
        description: 'A winter in a mountain cabin.',
        difficulty: 'Easy',
        hours: '1',
        minutes: '5',
        sample_text: 'Snön faller.',
        language: 'sv',
        cefr: 'A1',
        book_image: { name: 'cover.jpg', mimeType: 'image/jpeg', buffer: cover },
        sample_audio: { name: 'clip.mp3', mimeType: 'audio/mpeg', buffer: clip },
      },
    });
    expect(response.status(), await response.text()).toBe(200);
    codes.push(((await response.json()) as { data: { book_code: string } }).data.book_code);
  }
});

// The journeys after this one expect the demo catalogue's newest books.
test.afterAll(async ({ request }) => {
  for (const code of codes)
    await request.delete(`/api/v1/admin/book/${code}`, {
      headers: { Authorization: `Bearer ${session.token}` },
    });
});

const results = (page: Page) => page.getByRole('heading', { level: 2 }).first();

/** Opens the book whose card has this title, and checks its page. */
async function opensBook(page: Page, title: string) {
  await page.getByRole('link', { name: title, exact: true }).click();
  await expect(page).toHaveURL(/\/book-detail\/fjallstugan-\d+/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
}

for (const width of [375, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('with JavaScript, a visitor filters, searches and pages in place, then opens a book', async ({
      page,
    }) => {
      await page.goto('/books');
      // Set on this document only: a full page load would lose it.
      await page.evaluate(() => ((window as unknown as { same: boolean }).same = true));
      const samePage = () => page.evaluate(() => (window as unknown as { same?: boolean }).same === true);

      // Focused first, as a person's click or Tab would: the new filters give the focus back to it.
      await page.getByLabel('Language').focus();
      await page.getByLabel('Language').selectOption({ label: 'Swedish (25)' });
      await expect(page).toHaveURL(/\/books\?lang=sv$/);
      await expect(results(page)).toHaveText('25 books, page 1 of 2');
      await expect(page.getByLabel('Language')).toBeFocused();
      await expect(page).toHaveTitle('Swedish audio books · Lingonovel');

      await page.getByLabel('Level').selectOption({ label: 'A1 (25)' });
      await expect(page).toHaveURL(/\/books\?lang=sv&cefr=A1$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Swedish audio books at level A1');

      await page.getByLabel('Search titles, authors and descriptions').fill('fjallstugan');
      await page.getByLabel('Search titles, authors and descriptions').press('Enter');
      await expect(page).toHaveURL(/\/books\?lang=sv&cefr=A1&q=fjallstugan$/);
      await expect(results(page)).toHaveText('25 books matching “fjallstugan”, page 1 of 2');
      await expect(results(page)).toBeFocused();
      await expect(page.getByRole('status')).toHaveText('25 books matching “fjallstugan”, page 1 of 2');
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
      await expect(page.getByRole('link', { name: NEWEST, exact: true })).toBeVisible();

      await page.getByRole('link', { name: 'Next page' }).click();
      await expect(page).toHaveURL(/\/books\?lang=sv&cefr=A1&q=fjallstugan&page=2$/);
      await expect(results(page)).toHaveText('25 books matching “fjallstugan”, page 2 of 2');
      await expect(page.getByRole('link', { name: NEWEST, exact: true })).toHaveCount(0);
      await expect(page.getByRole('link', { name: OLDEST, exact: true })).toBeVisible();

      // Back goes to the previous state, still without a page load; Forward returns.
      await page.goBack();
      await expect(page).toHaveURL(/q=fjallstugan$/);
      await expect(results(page)).toHaveText('25 books matching “fjallstugan”, page 1 of 2');
      await page.goForward();
      await expect(results(page)).toHaveText('25 books matching “fjallstugan”, page 2 of 2');
      expect(await samePage()).toBe(true);

      await opensBook(page, OLDEST);
    });

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false });

      test('a visitor filters, searches and pages with the form and links, then opens a book', async ({
        page,
      }) => {
        const show = () => page.getByRole('button', { name: 'Show books' }).click();
        await page.goto('/books');
        await page.getByLabel('Language').selectOption({ label: 'Swedish (25)' });
        await show();
        // The form sends every field; the server answers with the one canonical URL.
        await expect(page).toHaveURL(/\/books\?lang=sv$/);
        await expect(results(page)).toHaveText('25 books, page 1 of 2');

        await page.getByLabel('Level').selectOption({ label: 'A1 (25)' });
        await show();
        await expect(page).toHaveURL(/\/books\?lang=sv&cefr=A1$/);

        await page.getByLabel('Search titles, authors and descriptions').fill('Fjällstugan');
        await show();
        await expect(page).toHaveURL(/\/books\?lang=sv&cefr=A1&q=Fj%C3%A4llstugan$/);
        await expect(results(page)).toHaveText('25 books matching “Fjällstugan”, page 1 of 2');

        await page.getByRole('link', { name: 'Next page' }).click();
        await expect(page).toHaveURL(/&page=2$/);
        await expect(results(page)).toHaveText('25 books matching “Fjällstugan”, page 2 of 2');
        await page.getByRole('link', { name: 'Previous page' }).click();
        await expect(page).toHaveURL(/q=Fj%C3%A4llstugan$/);

        await opensBook(page, NEWEST);
      });
    });
  });
}

test('an empty result says so and clears the filters', async ({ page }) => {
  await page.goto('/books?lang=sv&q=nothing-like-this');
  await expect(results(page)).toHaveText('No books found');
  await page.getByRole('link', { name: 'Clear the filters' }).click();
  await expect(page).toHaveURL(/\/books$/);
  await expect(results(page)).toHaveText(/^\d+ books, page 1 of \d+$/);
});

test("a language's page shows its books by level and leads to all of them", async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: /^Swedish\s+25 books$/ }).click();
  await expect(page).toHaveURL(/\/learn\/sv$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Swedish graded readers');
  await expect(page).toHaveTitle('Swedish graded readers with audio, A1 · Lingonovel');
  await expect(page.getByRole('heading', { level: 2, name: 'A1 · Beginner' })).toBeVisible();
  await page.getByRole('link', { name: 'See all 25 Swedish A1 books' }).click();
  await expect(page).toHaveURL(/\/books\?lang=sv&cefr=A1$/);
  await expect(results(page)).toHaveText('25 books, page 1 of 2');
});

test.describe('accessibility', () => {
  for (const path of ['/books', '/books?lang=sv&q=fjallstugan&page=2', '/learn/sv', '/learn/es']) {
    test(`${path} has no axe violations and fits a 320 px screen`, async ({ page }) => {
      await page.goto(path);
      const found = await new AxeBuilder({ page }).analyze();
      expect(
        found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
      await page.setViewportSize({ width: 320, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    });
  }

  test('/books has no axe violations after an update in place', async ({ page }) => {
    await page.goto('/books');
    await page.getByLabel('Level').selectOption('A1');
    await expect(page).toHaveURL(/cefr=A1$/);
    await expect(page.getByRole('status')).not.toBeEmpty();
    const found = await new AxeBuilder({ page }).analyze();
    expect(found.violations.map((v) => v.id)).toEqual([]);
  });
});
