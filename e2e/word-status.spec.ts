import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { newAccount, signIn, signUpByApi } from './helpers/accounts';
import { expect, test } from './helpers/fixtures';
import { wordPoint } from './helpers/reader';
import { PHONE } from './helpers/screens';

// Knowing which words you know (issue 34, docs/word-status.md), on a phone: a word tapped and marked
// known in its lookup loses its underline and shows on the book's card as coverage; "Mark the rest as
// known" at the chapter's end, then Undo.

const BOOK = 'der-leuchtturmwarter';
const WORD = 'Insel';

test.use(PHONE);

/**
 * The book's card on /books in its language, once the member's coverage came (GET user/coverage): what it
 * says of it, or '' when it says nothing (no word of the book known).
 */
async function cardCoverage(page: Page): Promise<string> {
  const answered = page.waitForResponse((r) => r.url().includes('/api/v1/user/coverage?') && r.ok());
  await page.goto('/books?lang=de');
  const card = page.locator(`li.book-card[data-coverage-of="${BOOK}"]`);
  await expect(card).toBeVisible();
  await answered;
  const line = card.locator('.book-coverage');
  // Drawn right after the answer: give it a frame.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  return (await line.count()) ? ((await line.textContent()) ?? '') : '';
}

test('mark a word known in its lookup, see the card’s coverage change, and undo Mark the rest as known', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const account = newAccount('status');
  await signUpByApi(request, account);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await cardCoverage(page)).toBe('');

  await page.goto(`/read/${BOOK}/1`);
  await expect(page.locator('reader-app.ready')).toBeAttached();
  // New words are underlined (dotted), once the member's statuses came.
  const insel = page.locator('li#p-1 .w', { hasText: WORD });
  await expect(insel).toHaveAttribute('data-status', 'new');
  await expect(page.locator('[data-phrases]')).toHaveClass(/word-marks/);
  expect(await insel.evaluate((el) => getComputedStyle(el).textDecorationStyle)).toBe('dotted');

  const point = await wordPoint(page, 1, WORD);
  await page.touchscreen.tap(point.x, point.y);
  const sheet = page.getByRole('dialog', { name: WORD });
  await expect(sheet).toBeVisible();
  const known = sheet.getByRole('button', { name: 'I know this word' });
  await expect(known).toHaveAttribute('aria-pressed', 'false');
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await known.click();
  await expect(known).toHaveAttribute('aria-pressed', 'true');
  await expect(sheet.getByRole('button', { name: 'I don’t know it yet' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await page.keyboard.press('Escape');
  await expect(insel).toHaveAttribute('data-status', 'known');
  expect(await insel.evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe('none');

  const after = await cardCoverage(page);
  expect(after).toMatch(/^You know (under )?\d+% of its words$/);
  const percent = Number(/(\d+)%/.exec(after)![1]);
  expect(percent).toBeGreaterThan(0);

  // The rest of the chapter, then Undo.
  await page.goto(`/read/${BOOK}/1`);
  await expect(page.locator('reader-app.ready')).toBeAttached();
  const markRest = page.getByRole('button', { name: 'Mark the rest as known' });
  await markRest.scrollIntoViewIfNeeded();
  await markRest.click();
  const status = page.locator('[data-mark-rest-status]');
  await expect(status).toHaveText(/^\d+ words marked as known\.$/);
  await expect(page.locator('[data-phrases] .w[data-status="new"]')).toHaveCount(0);
  expect(Number(/(\d+)%/.exec(await cardCoverage(page))![1])).toBeGreaterThan(percent);

  await page.goto(`/read/${BOOK}/1`);
  await expect(page.locator('reader-app.ready')).toBeAttached();
  // The Undo is offered where the marking was made: mark again, then undo at once.
  await page.getByRole('button', { name: 'Mark the rest as known' }).click();
  await expect(status).toHaveText('Every word of this chapter is known or saved already.');
  await expect(page.getByRole('button', { name: 'Undo' })).toBeHidden();
});

test('Undo right after Mark the rest as known makes the words new again', async ({ page, request }) => {
  const account = newAccount('undo');
  await signUpByApi(request, account);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/read/${BOOK}/1`);
  await expect(page.locator('reader-app.ready')).toBeAttached();
  await expect(page.locator('[data-phrases] .w[data-status="new"]').first()).toBeAttached();
  const before = await page.locator('[data-phrases] .w[data-status="new"]').count();
  await page.getByRole('button', { name: 'Mark the rest as known' }).click();
  await expect(page.locator('[data-mark-rest-status]')).toHaveText(/words marked as known/);
  await expect(page.locator('[data-phrases] .w[data-status="new"]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.locator('[data-mark-rest-status]')).toHaveText(/^Undone: \d+ words are new again\.$/);
  await expect(page.locator('[data-phrases] .w[data-status="new"]')).toHaveCount(before);
  await expect(page.getByRole('button', { name: 'Mark the rest as known' })).toBeFocused();
});

test('Best for me puts the books a member knows most of first, a page at a time', async ({
  page,
  request,
}) => {
  const account = newAccount('best');
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  const { token } = (await login.json()) as { token: string };
  const marked = await request.post('/api/v1/user/word-status/chapter', {
    headers: { Authorization: `Bearer ${token}` },
    data: { book_code: BOOK, chapter_no: 1 },
  });
  expect(marked.status(), await marked.text()).toBe(200);
  // The order is precomputed: wait until the member's is (meta.coverage_as_of), as a learner coming back
  // later would find it.
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/v1/user/books?sort=coverage', {
          headers: { Authorization: `Bearer ${token}` },
        });
        return ((await res.json()) as { meta: { coverage_as_of: string | null } }).meta.coverage_as_of;
      },
      { timeout: 60_000 },
    )
    .not.toBeNull();
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  // Pages of 4 books (the server's own answers), so that "More books" shows with the demo's few books.
  await page.route('**/api/v1/user/books?*', (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set('per_page', '4');
    return route.continue({ url: url.toString() });
  });
  await page.goto('/books');
  await page.locator('#books-sort').selectOption('coverage');
  await expect(page).toHaveURL(/#best-for-me$/);
  const heading = page.locator('[data-browse-results] h2');
  await expect(heading).toHaveText(/^(\d+) books, those you know best \(about 95% of their words\) first$/);
  const total = Number(/^(\d+)/.exec((await heading.textContent()) ?? '')![1]);
  const cards = page.locator('[data-browse-results] .book-grid li.book-card');
  await expect(cards).toHaveCount(4);
  // The book of the marked chapter is first, with its coverage.
  await expect(cards.first()).toHaveAttribute('data-coverage-of', BOOK);
  await expect(cards.first().locator('.book-coverage')).toHaveText(/^You know \d+% of its words$/);
  for (let shown = 4; shown < total; shown = Math.min(total, shown + 4)) {
    const more = page.getByRole('button', { name: `More books (${total - shown} left)` });
    await more.click();
    await expect(cards).toHaveCount(Math.min(total, shown + 4));
    // Focus goes on to the first new book.
    await expect(cards.nth(shown).locator('a')).toBeFocused();
  }
  await expect(page.getByRole('button', { name: /^More books/ })).toHaveCount(0);
  const codes = await cards.evaluateAll((items) =>
    items.map((item) => (item as HTMLElement).dataset.coverageOf),
  );
  expect(new Set(codes).size).toBe(total);
});
