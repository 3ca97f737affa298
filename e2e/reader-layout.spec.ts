import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import yazl from 'yazl';
import { adminSession, media, newBookChapter, removeBook, useSession, type Session } from './helpers/admin';
import { newAccount, signUpByApi } from './helpers/accounts';
import { expect, test } from './helpers/fixtures';
import { mainMenu } from './helpers/page';
import { LAPTOP, PHONE } from './helpers/screens';
import { smallTargets } from './helpers/tap-targets';
import { PLAY_ICON } from './helpers/reader';

// The reading screen's layout (docs/reader.md): the site header on one line with a menu button on a phone,
// the first phrase near the top, the header sliding away while reading down and back on scroll up, the
// current phrase always between the header and the player bar, and every control a full tap target.

const BOOK = 'der-leuchtturmwarter';
const BIG_CHAPTER_PHRASES = 300;

/** A member of their own, signed in through the API. */
async function member(request: APIRequestContext): Promise<Session> {
  const account = newAccount('layout');
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  expect(login.status()).toBe(200);
  return (await login.json()) as Session;
}

const header = (page: Page) => page.locator('header.site-header');

/** The header's box in the viewport: shown when its bottom is below the top edge. */
const headerShown = (page: Page) =>
  header(page).evaluate((element) => element.getBoundingClientRect().bottom > 1);

/**
 * Where the current phrase is against the band between the header (when shown) and the player bar:
 * "inside" when wholly in it.
 */
const currentPlace = (page: Page) =>
  page.evaluate(() => {
    const phrase = document.querySelector('li[aria-current="true"]');
    const bar = document.querySelector('.player-bar');
    const top = Math.max(0, document.querySelector('header.site-header')!.getBoundingClientRect().bottom);
    if (!phrase || !bar) return 'no current phrase';
    const box = phrase.getBoundingClientRect();
    const bottom = bar.getBoundingClientRect().top;
    return box.top >= top - 0.5 && box.bottom <= bottom + 0.5
      ? 'inside'
      : `${phrase.id} spans ${Math.round(box.top)} to ${Math.round(box.bottom)}, the band ${Math.round(top)} to ${Math.round(bottom)}`;
  });

/** The controls under 44×44 in the header and the reader (the footer is the every-page spec's). */
async function smallInHeaderAndReader(page: Page) {
  await page.locator('footer.site-footer').evaluate((footer: HTMLElement) => (footer.inert = true));
  const found = await smallTargets(page);
  await page.locator('footer.site-footer').evaluate((footer: HTMLElement) => (footer.inert = false));
  return found;
}

test.describe('on a phone', () => {
  test.use({ ...PHONE, reducedMotion: 'reduce' });

  for (const who of ['a visitor', 'a member'] as const)
    test(`for ${who}: one header line, the first phrase within 120 px of the top, and no control under 44 px`, async ({
      page,
      request,
    }) => {
      test.setTimeout(90_000);
      if (who === 'a member') await useSession(page, await member(request));
      await page.goto(`/read/${BOOK}/1`);
      await expect(page.getByRole('button', { name: 'Play all' })).toBeEnabled();
      // One line: every item shown in the header sits in the header's 45 px.
      const headerBox = (await header(page).boundingBox())!;
      expect(headerBox.height).toBeLessThanOrEqual(46);
      const first = (await page.locator('li#p-1').boundingBox())!;
      expect(first.y).toBeLessThanOrEqual(120);
      // The heading is whole for assistive technology; the book is one tap away, named by its title.
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Chapter 1 \S/);
      const back = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link');
      await expect(back).toHaveAttribute('href', `/book-detail/${BOOK}`);
      await expect(back).toBeVisible();
      if (who === 'a member') {
        await expect(mainMenu(page).getByRole('link', { name: 'My books' })).toBeVisible();
        await expect(mainMenu(page).getByRole('button', { name: 'Menu' })).toBeVisible();
      } else {
        for (const name of ['Books', 'Login', 'Signup'])
          await expect(mainMenu(page).getByRole('link', { name, exact: true })).toBeVisible();
      }

      // The current phrase's toggles, after its clip: Save (glossary), the marks and Save phrase.
      await page.locator('li#p-1 .phrase').tap(PLAY_ICON);
      await expect(page.locator('li#p-1 .phrase-marks')).toBeVisible({ timeout: 20_000 });
      await expect(page.locator('li#p-1 .save-word').first()).toBeVisible();
      expect(await smallInHeaderAndReader(page)).toEqual([]);
      // The chapter links at the end, too.
      await page.locator('nav.chapters').scrollIntoViewIfNeeded();
      await expect(page.getByRole('link', { name: 'Chapter 2', exact: true })).toBeVisible();
      expect(await smallInHeaderAndReader(page)).toEqual([]);
    });

  test("a member's menu: the rest of the items behind a button that Escape closes", async ({
    page,
    request,
  }) => {
    await useSession(page, await member(request));
    await page.goto('/books');
    const button = mainMenu(page).getByRole('button', { name: 'Menu' });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(mainMenu(page).getByRole('link', { name: 'Words' })).toBeHidden();
    await button.tap();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    for (const name of ['Words', 'Review', 'Dashboard'])
      await expect(mainMenu(page).getByRole('link', { name })).toBeVisible();
    await expect(mainMenu(page).getByRole('button', { name: 'Logout' })).toBeVisible();
    expect(await smallInHeaderAndReader(page)).toEqual([]);
    // From the keyboard: Tab goes from the button into the menu, Escape closes it and the focus comes back.
    await button.focus();
    await page.keyboard.press('Tab');
    await expect(mainMenu(page).getByRole('link', { name: 'Words' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(mainMenu(page).getByRole('link', { name: 'Words' })).toBeHidden();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toBeFocused();
    // Tabbing on past its last item closes it: an open menu must not cover what the focus moved to.
    await button.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await mainMenu(page).getByRole('button', { name: 'Logout' }).focus();
    await page.keyboard.press('Tab');
    await expect(mainMenu(page).getByRole('button', { name: 'Logout' })).toBeHidden();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  test('the header slides away while reading down and comes back on scroll up', async ({ page }) => {
    await page.goto(`/read/${BOOK}/1`);
    await expect(page.getByRole('button', { name: 'Play all' })).toBeEnabled();
    expect(await headerShown(page)).toBe(true);
    // The page must be long enough to scroll (the chapter has a few phrases): the footer's room helps.
    await page.evaluate(() => window.scrollBy(0, 200));
    await expect.poll(() => headerShown(page)).toBe(false);
    await page.evaluate(() => window.scrollBy(0, -60));
    await expect.poll(() => headerShown(page)).toBe(true);
    expect((await header(page).boundingBox())!.y).toBeCloseTo(0, 0);
    await page.evaluate(() => window.scrollBy(0, 60));
    await expect.poll(() => headerShown(page)).toBe(false);
    // Back at the top of the page, it shows.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => headerShown(page)).toBe(true);
  });
});

test.describe('a 300-phrase chapter on a phone', () => {
  test.use({ ...PHONE, reducedMotion: 'reduce' });
  let admin: Session;
  let bookCode: string | undefined;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(180_000);
    admin = await adminSession(request);
    const made = await newBookChapter(request, admin, 'fr');
    bookCode = made.bookCode;
    // One import of 300 rows and 300 short clips (the fixture's 3 s MP3), as an author would publish them.
    const zip = new yazl.ZipFile();
    const clip = readFileSync(media.clip);
    for (let n = 1; n <= BIG_CHAPTER_PHRASES; n++) zip.addBuffer(clip, `clips/${n}.mp3`, { compress: false });
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const rows = Array.from({ length: BIG_CHAPTER_PHRASES }, (_, i) =>
      i % 7 === 3
        ? `Phrase ${i + 1} : le train traversait lentement la campagne, et personne ne parlait dans le wagon ce matin-là.\ttrain — train\t${i + 1}.mp3`
        : `Phrase ${i + 1} : il regardait la mer.\tmer — sea\t${i + 1}.mp3`,
    );
    const headers = { Authorization: `Bearer ${admin.token}` };
    const preview = await request.post(`/api/v1/admin/chapter/${made.chapterId}/import`, {
      headers,
      multipart: {
        text: {
          name: 'chapter.tsv',
          mimeType: 'text/tab-separated-values',
          buffer: Buffer.from(['phrase\tdictionary\taudio', ...rows].join('\n')),
        },
        clips: { name: 'clips.zip', mimeType: 'application/zip', buffer: Buffer.concat(chunks) },
      },
      timeout: 120_000,
    });
    expect(preview.status(), await preview.text()).toBe(200);
    const staged = ((await preview.json()) as { data: { import_id: number; errors: string[] } }).data;
    expect(staged.errors).toEqual([]);
    const commit = await request.post(`/api/v1/admin/import/${staged.import_id}/commit`, {
      headers,
      timeout: 120_000,
    });
    expect(commit.status(), await commit.text()).toBe(200);
  });

  test.afterAll(async ({ request }) => {
    if (bookCode) await removeBook(request, admin, bookCode);
  });

  test('in play all, the current phrase stays between the header and the player bar', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(`/read/${bookCode}/1`);
    await expect(page.locator(`li#p-${BIG_CHAPTER_PHRASES}`)).toBeAttached();
    const playAll = page.getByRole('button', { name: 'Play all' });
    const current = () =>
      page.locator('li[aria-current="true"]').evaluate((li) => Number(li.id.replace('p-', '')));
    const inBand = () => expect.poll(() => currentPlace(page), { intervals: [100, 200, 400] }).toBe('inside');
    await playAll.tap();
    await expect(playAll).toHaveAttribute('aria-pressed', 'true');
    await inBand();
    // Play all moves on by itself: the next phrase comes into the band.
    await expect(page.locator('li#p-2')).toHaveAttribute('aria-current', 'true', { timeout: 15_000 });
    await inBand();
    // Far down the chapter with Next and →, play all still on (it moves on by itself meanwhile too).
    const next = page.getByRole('button', { name: 'Next phrase' });
    for (const step of [30, 60, 100, 150, 220, 290]) {
      while ((await current()) < step) {
        await next.tap();
        for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
      }
      await inBand();
    }
    await expect(playAll).toHaveAttribute('aria-pressed', 'true');
    // Scrolled away by hand, the phrase play all moves on to comes back into the band.
    await page.evaluate(() => window.scrollBy(0, -250));
    const before = await current();
    await expect.poll(current, { timeout: 15_000 }).toBeGreaterThan(before);
    await inBand();
    await playAll.tap();
    await expect(playAll).toHaveAttribute('aria-pressed', 'false');

    // The header shown (scrolled up) and the phrase before partly under it: Previous brings it out.
    const at = await current();
    await page
      .locator(`li#p-${at - 1}`)
      .evaluate((li) => window.scrollTo(0, window.scrollY + li.getBoundingClientRect().top + 30));
    // The header looks at the scroll once a frame: the page must draw a frame between the two scrolls,
    // or (on a loaded machine) both land in one and it sees only their sum, a few pixels down.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await expect.poll(() => headerShown(page)).toBe(false);
    await page.evaluate(() => window.scrollBy(0, -40));
    await expect.poll(() => headerShown(page)).toBe(true);
    // Before: its top under the header.
    expect(
      await page.locator(`li#p-${at - 1}`).evaluate((li) => li.getBoundingClientRect().top),
    ).toBeLessThan((await header(page).boundingBox())!.height);
    await page.getByRole('button', { name: 'Previous phrase' }).tap();
    await expect(page.locator(`li#p-${at - 1}`)).toHaveAttribute('aria-current', 'true');
    await inBand();
    expect(await headerShown(page)).toBe(true);
  });
});

test.describe('on a laptop', () => {
  test.use(LAPTOP);

  test("a member's whole menu shows inline, on one line, without the menu button", async ({
    page,
    request,
  }) => {
    await useSession(page, await member(request));
    await page.goto(`/read/${BOOK}/1`);
    for (const name of ['Books', 'My books', 'Words', 'Review', 'Dashboard'])
      await expect(mainMenu(page).getByRole('link', { name, exact: true })).toBeVisible();
    await expect(mainMenu(page).getByRole('button', { name: 'Logout' })).toBeVisible();
    await expect(mainMenu(page).getByRole('button', { name: 'Menu' })).toBeHidden();
    expect((await header(page).boundingBox())!.height).toBeLessThanOrEqual(46);
    expect(await smallInHeaderAndReader(page)).toEqual([]);
  });
});
