import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { newAccount, signIn, signUpByApi } from './helpers/accounts';
import { setPlan } from './helpers/plans';
import {
  audioState,
  inSettings,
  placesSent,
  PLAY_ICON,
  playing,
  settingsButton,
  stopClock,
} from './helpers/reader';

const BOOK = 'der-leuchtturmwarter';

test('a visitor opens a book, starts chapter 1, taps a phrase and hears it', async ({ page }) => {
  await page.goto(`/book-detail/${BOOK}`);
  await expect(page.getByRole('heading', { name: 'Contents' })).toBeVisible();
  await page.getByRole('link', { name: 'Start reading' }).click();
  await expect(page).toHaveURL(new RegExp(`/read/${BOOK}/1$`));
  // The URL changes before the page has loaded: the tap waits for the player's script, as a goto does.
  await page.waitForLoadState();
  const second = page.locator('li#p-2');
  await second.getByRole('button').click(PLAY_ICON);
  await playing(page).toBe(true);
  await expect(second).toHaveClass(/current/);
  expect((await audioState(page)).src).toContain(await second.getAttribute('data-audio'));
});

test('play all moves through the phrases, the highlight following', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(`/read/${BOOK}/1`);
  await inSettings(page, () => page.getByLabel('Speed').selectOption('1.5'));
  await page.getByRole('button', { name: 'Play all' }).click();
  for (const n of [1, 2, 3])
    await expect(page.locator(`li#p-${n}`)).toHaveClass(/current/, { timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Play all' })).toHaveAttribute('aria-pressed', 'true');
});

test('the speed survives a reload', async ({ page }) => {
  await page.goto(`/read/${BOOK}/1`);
  await inSettings(page, () => page.getByLabel('Speed').selectOption('0.7'));
  await page.reload();
  await expect(page.getByLabel('Speed')).toHaveValue('0.7');
  await page.locator('li#p-1').getByRole('button').click(PLAY_ICON);
  await expect.poll(async () => (await audioState(page)).rate).toBe(0.7);
});

test("a member's place is restored on another device", async ({ browser, request }) => {
  const account = newAccount('reader');
  await signUpByApi(request, account);
  const first = await browser.newContext();
  const one = await first.newPage();
  await signIn(one, account.email, account.password);
  await expect(one).toHaveURL(/\/dashboard$/);
  await one.goto(`/read/${BOOK}/1`);
  await one.locator('li#p-3').getByRole('button').click(PLAY_ICON);
  await expect
    .poll(async () =>
      (await request.get(`/api/v1/user/progress/${BOOK}`, { headers: await bearer(one) })).status(),
    )
    .toBe(200);
  await first.close();

  const second = await browser.newContext();
  const two = await second.newPage();
  await signIn(two, account.email, account.password);
  await expect(two.getByRole('heading', { name: 'Continue reading' })).toBeVisible();
  await expect(two.getByText('Chapter 1, phrase 3 of 4')).toBeVisible();
  await two.goto(`/book-detail/${BOOK}`);
  await two.getByRole('link', { name: 'Continue: chapter 1, phrase 3' }).click();
  await expect(two.locator('li#p-3')).toHaveClass(/current/);
  await second.close();
});

async function bearer(page: Page): Promise<Record<string, string>> {
  return { Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}` };
}

/**
 * The member's saved place in the book, or null while there is none: a poll may ask before the page's
 * save has reached the server (a loaded machine), and must ask again rather than fail on the 404.
 */
async function savedPlace(
  request: APIRequestContext,
  headers: Record<string, string>,
): Promise<number | null> {
  const response = await request.get(`/api/v1/user/progress/${BOOK}`, { headers });
  if (response.status() === 404) return null;
  return ((await response.json()) as { data: { position: number } }).data.position;
}

test("a member's place survives leaving the page right after the last move", async ({ page, request }) => {
  const account = newAccount('leaving');
  await signUpByApi(request, account);
  // The page's clock is stopped before the taps: the save a moment after the last move cannot go out,
  // however slow the machine, so only leaving the page can carry the place.
  await page.clock.install();
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const headers = await bearer(page);
  const saved = await request.put('/api/v1/user/progress', {
    headers,
    data: { book_code: BOOK, chapter_no: 1, position: 1 },
  });
  expect(saved.status()).toBe(200);
  await page.goto(`/read/${BOOK}/1`);
  await expect(page.locator('li#p-1')).toHaveAttribute('aria-current', 'true');
  const sent = placesSent(page);
  await stopClock(page);
  // Two taps on Next phrase, and the learner is gone at once: the place goes out as the page is left.
  const next = page.getByRole('button', { name: 'Next phrase' });
  await next.click();
  await next.click();
  await expect(page.locator('li#p-3')).toHaveAttribute('aria-current', 'true');
  expect(sent, 'sent before the page was left').not.toContain(3);
  await page.goto('about:blank');
  await expect.poll(() => savedPlace(request, headers)).toBe(3);
});

test("opening the reader at a member's place saves nothing until they move", async ({ page, request }) => {
  const account = newAccount('reopen');
  await signUpByApi(request, account);
  await page.clock.install();
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const headers = await bearer(page);
  const saved = await request.put('/api/v1/user/progress', {
    headers,
    data: { book_code: BOOK, chapter_no: 1, position: 2 },
  });
  expect(saved.status()).toBe(200);
  const sent = placesSent(page);
  // By the Continue link, as a learner comes back. Saved again, the place would carry the time the page
  // opened, and replace a newer one waiting on a device that was offline.
  await page.goto(`/read/${BOOK}/1#p-2`);
  await expect(page.locator('li#p-2')).toHaveAttribute('aria-current', 'true');
  // Well past the moment a save waits for.
  await page.clock.runFor(5000);
  await page.locator('li#p-3').getByRole('button').click(PLAY_ICON);
  await expect(page.locator('li#p-3')).toHaveAttribute('aria-current', 'true');
  await page.clock.runFor(5000);
  await expect.poll(() => savedPlace(request, headers)).toBe(3);
  // The move's place is the only one the page sent.
  await expect.poll(() => [...sent]).toEqual([3]);
});

test("a member's waiting place is not saved as another member's, signed in meanwhile in another tab", async ({
  page,
  request,
}) => {
  const first = newAccount('owner');
  const second = newAccount('switch');
  await signUpByApi(request, first);
  await signUpByApi(request, second);
  await page.clock.install();
  await signIn(page, first.email, first.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/read/${BOOK}/1`);
  const sent = placesSent(page);
  await stopClock(page);
  await page.locator('li#p-3').getByRole('button').click(PLAY_ICON);
  await expect(page.locator('li#p-3')).toHaveAttribute('aria-current', 'true');
  // The second member signs in in another tab: the browser's session (localStorage) is theirs now.
  const login = await request.post('/api/v1/user/login', {
    data: { email: second.email, password: second.password },
  });
  const session = (await login.json()) as { token: string; user: unknown };
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('token', token);
    localStorage.setItem('user', JSON.stringify(user));
  }, session);
  // The moment after the first member's move passes; then a move of the second member's goes out.
  await page.clock.runFor(2000);
  await page.locator('li#p-2').getByRole('button').click(PLAY_ICON);
  await page.clock.runFor(2000);
  await expect.poll(() => [...sent]).toContain(2);
  expect(sent).toEqual([2]);
  await expect.poll(() => savedPlace(request, { Authorization: `Bearer ${session.token}` })).toBe(2);
});

test("a visitor's place in a free chapter joins the account at sign-in", async ({ page, request }) => {
  const account = newAccount('carry');
  await signUpByApi(request, account);
  await page.goto('/read/el-gato-de-la-plaza/1');
  await page.locator('li#p-2').getByRole('button').click(PLAY_ICON);
  await playing(page).toBe(true);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const book = page.getByRole('region', { name: 'Continue reading' });
  await expect(book.getByText(/Chapter 1, phrase 2 of \d+/)).toBeVisible();
});

test('chapter 2 offers the trial to a member without a plan, and reads for a trialing member', async ({
  page,
  request,
}) => {
  await page.goto(`/read/${BOOK}/2`);
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expect(page.locator('li[data-audio]')).toHaveCount(0);

  const account = newAccount('trial');
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  const { user } = (await login.json()) as { user: { id: number } };
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/read/${BOOK}/2`);
  await expect(page.getByText('Start your free 30-day trial to read on.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Try for $0.00' })).toBeVisible();

  await setPlan(request, user.id, 'trialing');
  await page.reload();
  await expect(page.locator('li[data-audio]').first()).toBeVisible();
  await page.locator('li#p-1').getByRole('button').click(PLAY_ICON);
  await playing(page).toBe(true);
  expect((await audioState(page)).src).toMatch(/\?exp=\d+&sig=/);
  // The phrases the script drew are styled like the server's: hiding the text hides it.
  await inSettings(page, () => page.getByRole('button', { name: 'Hide text' }).click());
  await expect(page.locator('li#p-2 .phrase')).toHaveCSS('color', 'rgba(0, 0, 0, 0)');
});

test('play all goes on to the next chapter inside the page for a member who may read it', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const account = newAccount('onward');
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  await setPlan(request, ((await login.json()) as { user: { id: number } }).user.id, 'active');
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/read/${BOOK}/1`);
  await inSettings(page, () => page.getByLabel('Speed').selectOption('1.5'));
  const last = await page.locator('li[data-audio]').count();
  // The last phrase made current by the link to it (without sounding), then Play all from it.
  await page.goto('about:blank');
  await page.goto(`/read/${BOOK}/1#p-${last}`);
  await expect(page.locator(`li#p-${last}`)).toHaveAttribute('aria-current', 'true');
  await page.getByRole('button', { name: 'Play all' }).click();
  await expect(page).toHaveURL(new RegExp(`/read/${BOOK}/2$`), { timeout: 20_000 });
  await expect(page.locator('li#p-1')).toHaveClass(/current/);
  await playing(page).toBe(true);
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Chapter 2');
  await expect(
    page.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: 'Chapter 3', exact: true }),
  ).toBeVisible();
});

test('the whole reader works from the keyboard alone', async ({ page }) => {
  await page.goto(`/read/${BOOK}/1`);
  await page.locator('body').press('ArrowRight');
  await expect(page.locator('li#p-1')).toHaveClass(/current/);
  await playing(page).toBe(true);
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('li#p-2')).toHaveClass(/current/);
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('li#p-1')).toHaveClass(/current/);
  await page.keyboard.press(']');
  await expect(page.getByLabel('Speed')).toHaveValue('1.1');
  for (let n = 0; n < 6; n++) await page.keyboard.press('[');
  await expect(page.getByLabel('Speed')).toHaveValue('0.5');
  // R plays phrase 1 again (8.6 s at 0.5×); it sounds, so the one play/pause button shows it pressed:
  // Space stops it, then plays all.
  await page.keyboard.press('r');
  const playAll = page.getByRole('button', { name: 'Play all' });
  await expect(playAll).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Space');
  await expect.poll(async () => (await audioState(page)).paused).toBe(true);
  await expect(playAll).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('Space');
  await expect(playAll).toHaveAttribute('aria-pressed', 'true');
  await playing(page).toBe(true);
  await page.keyboard.press('Space');
  await expect.poll(async () => (await audioState(page)).paused).toBe(true);
  await page.keyboard.press('r');
  await playing(page).toBe(true);
  // Space on a focused button is that button's own activation, not play or pause.
  await page.getByRole('button', { name: 'Next phrase' }).focus();
  await page.keyboard.press('Space');
  await expect(page.locator('li#p-2')).toHaveClass(/current/);
  await expect(playAll).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Previous phrase' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-live]')).toContainText('Phrase 1 of 4');
  // Every control is reachable with Tab and works with Enter; the settings are in a sheet the bar opens.
  await settingsButton(page).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Player settings' })).toBeVisible();
  const hide = page.getByRole('button', { name: 'Hide text' });
  await hide.focus();
  await page.keyboard.press('Enter');
  await expect(hide).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Reveal all' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('li#p-4')).toHaveClass(/revealed/);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Player settings' })).toBeHidden();
  await expect(settingsButton(page)).toBeFocused();
});

test('the reader passes an accessibility audit', async ({ page }) => {
  await page.goto(`/read/${BOOK}/1`);
  await page.locator('li#p-1').getByRole('button').click(PLAY_ICON);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations).toEqual([]);
  await page.goto(`/read/${BOOK}/2`);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});
