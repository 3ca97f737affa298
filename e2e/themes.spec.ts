import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './helpers/fixtures';
import { newAccount, signIn, signUpByApi } from './helpers/accounts';
import { adminApi, adminSession, useSession, type Session } from './helpers/admin';
import { inSettings } from './helpers/reader';
import { LAPTOP, PHONE } from './helpers/screens';

/**
 * Issue 36, reading comfort (docs/design.md, "Themes and reading settings"): every page in the light,
 * dark and sepia themes passes axe (its contrast checks included: `auditIn`); a chosen theme and the reader's text
 * size apply before the first paint, so nothing flashes or moves; dark follows the device until the
 * person chooses; a member's choice follows them to their other devices, the later one winning.
 */
const BOOK = 'der-leuchtturmwarter';
const THEMES = ['light', 'dark', 'sepia'] as const;

/**
 * axe as each theme needs it. A theme changes colours only (custom properties on the root, docs/design.md),
 * never the DOM: the light theme gets every rule, the others the rules whose answer depends on colour,
 * which is all a theme can break. The same page is then not audited three times over for names, roles
 * and landmarks.
 */
const auditIn = (page: Page, theme: (typeof THEMES)[number]) => {
  const axe = new AxeBuilder({ page });
  return theme === 'light' ? axe : axe.withRules(['color-contrast', 'link-in-text-block']);
};

type Who = 'visitor' | 'member' | 'admin';
interface Ids {
  bookId: number;
  chapterId: number;
  phraseId: number;
}
interface Screen {
  path: (ids: Ids) => string;
  heading: string | RegExp;
  who: Who;
}

const SCREENS: Screen[] = [
  { who: 'visitor', path: () => '/', heading: /./ },
  { who: 'visitor', path: () => '/books', heading: 'Books' },
  { who: 'visitor', path: () => '/learn/de', heading: /German/ },
  { who: 'visitor', path: () => `/book-detail/${BOOK}`, heading: /Leuchtturm/ },
  { who: 'visitor', path: () => `/read/${BOOK}/1`, heading: /./ },
  { who: 'visitor', path: () => '/about', heading: /./ },
  { who: 'visitor', path: () => '/support', heading: /./ },
  { who: 'visitor', path: () => '/purchase', heading: /./ },
  { who: 'visitor', path: () => '/subs', heading: /./ },
  { who: 'visitor', path: () => '/check', heading: /Try/ },
  { who: 'visitor', path: () => '/lingonovel-story', heading: /./ },
  { who: 'visitor', path: () => '/login', heading: /./ },
  { who: 'visitor', path: () => '/signup', heading: /./ },
  { who: 'visitor', path: () => '/forgot', heading: /./ },
  { who: 'visitor', path: () => '/resetpassword?token=nothing', heading: 'Reset password' },
  { who: 'visitor', path: () => '/offline', heading: 'You are offline' },
  { who: 'visitor', path: () => '/no-such-page', heading: /./ },
  { who: 'member', path: () => '/dashboard', heading: /./ },
  { who: 'member', path: () => `/read/${BOOK}/1`, heading: /./ },
  { who: 'member', path: () => '/review', heading: /./ },
  { who: 'member', path: () => '/words', heading: /./ },
  { who: 'member', path: () => '/downloads', heading: /./ },
  { who: 'member', path: () => '/profile', heading: /./ },
  { who: 'member', path: () => '/checkout', heading: 'Checkout' },
  { who: 'admin', path: () => '/admin/dashboard', heading: 'Admin Dashboard' },
  { who: 'admin', path: () => '/admin/books', heading: 'Books' },
  { who: 'admin', path: () => '/admin/dashboard/create-book', heading: 'Add Book' },
  { who: 'admin', path: () => `/admin/books/edit/${BOOK}`, heading: 'Edit Book' },
  { who: 'admin', path: () => `/admin/book-detail/${BOOK}`, heading: /Leuchtturm/ },
  { who: 'admin', path: (ids) => `/admin/chapter/list/${ids.bookId}`, heading: 'Chapter List' },
  { who: 'admin', path: (ids) => `/admin/books/chapter/create/${ids.bookId}`, heading: 'Add Chapter' },
  { who: 'admin', path: (ids) => `/admin/chapters/edit/${ids.chapterId}`, heading: 'Edit Chapter' },
  { who: 'admin', path: (ids) => `/admin/chapter/phrase/list/${ids.chapterId}`, heading: 'Phrase List' },
  { who: 'admin', path: (ids) => `/admin/chapter/phrase/create/${ids.chapterId}`, heading: 'Add Phrase' },
  { who: 'admin', path: (ids) => `/admin/chapter/phrase/edit/${ids.phraseId}`, heading: 'Edit Phrase' },
  { who: 'admin', path: () => '/admin/books/import', heading: 'Import a book' },
  { who: 'admin', path: (ids) => `/admin/chapter/phrase/import/${ids.chapterId}`, heading: 'Import phrases' },
  { who: 'admin', path: () => '/admin/dictionaries', heading: /./ },
];

let admin: Session;
let member: Session;
let ids: Ids;

async function memberSession(request: APIRequestContext): Promise<Session> {
  const account = newAccount('themes');
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  return (await login.json()) as Session;
}

test.beforeAll(async ({ request }) => {
  admin = await adminSession(request);
  member = await memberSession(request);
  const books = await adminApi<{ data: Array<{ id: number; book_code: string }> }>(
    request,
    admin,
    'GET',
    'admin/book',
  );
  const bookId = books.body.data.find((book) => book.book_code === BOOK)!.id;
  const chapters = await adminApi<{ data: { chapters: Array<{ id: number }> } }>(
    request,
    admin,
    'GET',
    `admin/chapter?book_id=${bookId}`,
  );
  const chapterId = chapters.body.data.chapters[0].id;
  const phrases = await adminApi<{ data: { phrases: Array<{ id: number }> } }>(
    request,
    admin,
    'GET',
    `admin/phrase?chapter_id=${chapterId}`,
  );
  ids = { bookId, chapterId, phraseId: phrases.body.data.phrases[0].id };
});

/** The device's setting, as the site keeps it, without a time: nothing for the page to send anywhere. */
const keepOnDevice = (page: Page, setting: Record<string, unknown>) =>
  page.evaluate((value) => localStorage.setItem('appearance', JSON.stringify(value)), setting);

const settled = async (page: Page, heading: string | RegExp) => {
  await expect(page.getByRole('heading', { level: 1, name: heading }).first()).toBeVisible();
  await expect(page.getByText(/^(Checking your access|Loading)/)).toHaveCount(0);
};

test.describe('every page in every theme', () => {
  for (const screen of SCREENS) {
    const label = `${screen.path({ bookId: 1, chapterId: 1, phraseId: 1 })} (${screen.who})`;
    test(`${label} passes axe in light, dark and sepia`, async ({ page }) => {
      if (screen.who !== 'visitor') await useSession(page, screen.who === 'admin' ? admin : member);
      await page.goto(screen.path(ids));
      for (const theme of THEMES) {
        await keepOnDevice(page, { theme, textSize: 2, lineSpacing: 2 });
        await page.reload();
        await settled(page, screen.heading);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        const { violations } = await auditIn(page, theme).analyze();
        expect
          .soft(
            violations.map(
              (found) => `${found.id}: ${found.nodes.map((node) => node.target.join(' ')).join(', ')}`,
            ),
            `${label} in ${theme}`,
          )
          .toEqual([]);
      }
    });
  }
});

test('the reader’s settings sheet passes axe in light, dark and sepia', async ({ page }) => {
  await page.goto(`/read/${BOOK}/1`);
  for (const theme of THEMES) {
    await keepOnDevice(page, { theme, textSize: 2, lineSpacing: 2 });
    await page.reload();
    await page.getByRole('button', { name: /^Player settings/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Player settings' });
    await expect(sheet.getByRole('radio', { name: theme[0].toUpperCase() + theme.slice(1) })).toBeChecked();
    const { violations } = await auditIn(page, theme).include('#reader-settings').analyze();
    expect
      .soft(
        violations.map((found) => found.id),
        theme,
      )
      .toEqual([]);
  }
});

/**
 * The theme on <html> when <body> first appears, and the page's background in the frame before the first
 * paint (once the render-blocking styles are in).
 */
async function firstDrawn(page: Page): Promise<{ theme: string | null; background: string }> {
  await page.waitForFunction(
    () => 'background' in ((window as unknown as { __first?: object }).__first ?? {}),
  );
  return page.evaluate(
    () => (window as unknown as { __first: { theme: string; background: string } }).__first,
  );
}

const watchFirstDraw = (page: Page) =>
  page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      observer.disconnect();
      const first: { theme: string | null; background?: string } = {
        theme: document.documentElement.getAttribute('data-theme'),
      };
      (window as unknown as { __first: object }).__first = first;
      requestAnimationFrame(
        () => (first.background = getComputedStyle(document.documentElement).backgroundColor),
      );
    }).observe(document, { childList: true, subtree: true });
  });

test.describe('on a phone', () => {
  test.use(PHONE);

  test('follows the device’s dark until the person chooses, then keeps their choice', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await watchFirstDraw(page);
    await page.goto('/books');
    expect(await firstDrawn(page)).toEqual({ theme: 'dark', background: 'rgb(20, 23, 29)' });
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

    const theme = page.getByRole('combobox', { name: 'Theme' });
    await expect(theme).toHaveValue('system');
    await theme.selectOption('sepia');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'sepia');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    expect(await firstDrawn(page)).toEqual({ theme: 'sepia', background: 'rgb(244, 236, 216)' });
    await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('sepia');

    await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });

  test('sizes and spaces the reader’s text, kept on reload, drawn at that size from the first paint', async ({
    page,
  }) => {
    await page.goto(`/read/${BOOK}/1`);
    const phrase = page.locator('.phrase').first();
    const size = () => phrase.evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
    const spacing = () =>
      phrase.evaluate(
        (element) =>
          parseFloat(getComputedStyle(element).lineHeight) / parseFloat(getComputedStyle(element).fontSize),
      );
    const sizes: number[] = [];
    for (const name of ['Small', 'Medium', 'Large', 'Largest']) {
      await inSettings(page, () => page.getByRole('radio', { name, exact: true }).check());
      sizes.push(await size());
    }
    expect(sizes).toEqual([16, 18.4, 21.6, 25.6]);
    await inSettings(page, () => page.getByRole('radio', { name: 'Loose' }).check());
    expect(await spacing()).toBeCloseTo(1.8, 2);
    await inSettings(page, () => page.getByRole('radio', { name: 'Dark' }).check());
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

    // On the next visit the page is drawn that way at once: no shift when the setting applies.
    await page.evaluate(() => {
      (window as unknown as { shifts: number }).shifts = 0;
    });
    await watchFirstDraw(page);
    await page.addInitScript(() => {
      (window as unknown as { shifts: number }).shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>)
          (window as unknown as { shifts: number }).shifts += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.reload();
    await expect(phrase).toBeVisible();
    expect(await firstDrawn(page)).toEqual({ theme: 'dark', background: 'rgb(20, 23, 29)' });
    expect([await size(), await spacing()]).toEqual([25.6, expect.closeTo(1.8, 2)]);
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBe(0);
  });
});

test.describe('on a laptop', () => {
  test.use(LAPTOP);

  test('a member’s choice follows them to another device, and the later choice wins', async ({ browser }) => {
    const account = newAccount('appearance');
    const laptop = await browser.newContext();
    const phone = await browser.newContext({ ...PHONE });
    try {
      const first = await laptop.newPage();
      await signUpByApi(first.request, account);
      await signIn(first, account.email, account.password);
      await expect(first).toHaveURL(/\/dashboard/);
      await first.goto(`/read/${BOOK}/1`);
      await inSettings(first, async () => {
        await first.getByRole('radio', { name: 'Sepia' }).check();
        await first.getByRole('radio', { name: 'Large', exact: true }).check();
      });
      const token = await first.evaluate(() => localStorage.getItem('token'));
      const held = async (): Promise<unknown> =>
        (
          await first.request.get('/api/v1/user/appearance', {
            headers: { Authorization: `Bearer ${token}` },
          })
        ).json();
      await expect.poll(held).toMatchObject({ data: { theme: 'sepia', text_size: 3, line_spacing: 2 } });

      // Another device, signed in: the member's setting arrives with the first page, and stays.
      const second = await phone.newPage();
      await signIn(second, account.email, account.password);
      await expect(second.locator('html')).toHaveAttribute('data-theme', 'sepia');
      await second.goto(`/read/${BOOK}/1`);
      await expect(second.locator('html')).toHaveAttribute('data-text-size', '3');
      await second.getByRole('combobox', { name: 'Theme' }).selectOption('dark');

      // Back on the laptop, the later choice (the phone's) wins on the next page.
      await first.goto('/books');
      await expect(first.locator('html')).toHaveAttribute('data-theme', 'dark');
      await expect(first.locator('html')).toHaveAttribute('data-text-size', '3');
    } finally {
      await laptop.close();
      await phone.close();
    }
  });
  test('one member’s choice never becomes another’s account setting on a shared device', async ({ page }) => {
    const [ada, bo] = [newAccount('ada'), newAccount('bo')];
    for (const account of [ada, bo]) await signUpByApi(page.request, account);
    await signIn(page, ada.email, ada.password);
    await expect(page).toHaveURL(/\/dashboard/);
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('sepia');
    const setting = async (token: string | null): Promise<unknown> =>
      (
        await page.request.get('/api/v1/user/appearance', { headers: { Authorization: `Bearer ${token}` } })
      ).json();
    const adaToken = await page.evaluate(() => localStorage.getItem('token'));
    await expect.poll(() => setting(adaToken)).toMatchObject({ data: { theme: 'sepia' } });

    await page.getByRole('button', { name: 'Logout' }).click();
    await signIn(page, bo.email, bo.password);
    await expect(page).toHaveURL(/\/dashboard/);
    await page.goto('/books');
    // The device keeps its look; Bo's account stays without a setting until Bo chooses one.
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'sepia');
    const boToken = await page.evaluate(() => localStorage.getItem('token'));
    expect(await setting(boToken)).toEqual({ data: null });
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
    await expect.poll(() => setting(boToken)).toMatchObject({ data: { theme: 'dark' } });
    expect(await setting(adaToken)).toMatchObject({ data: { theme: 'sepia' } });
  });
});
