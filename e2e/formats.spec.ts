import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzip } from '../server/test/zips';
import { newAccount, signUpByApi, type Account } from './helpers/accounts';
import { adminSession, useSession, type Session } from './helpers/admin';
import { expect, test } from './helpers/fixtures';
import { setPlan } from './helpers/plans';
import { PLAY_ICON, playing } from './helpers/reader';
import { LAPTOP, PHONE } from './helpers/screens';
import config from '../playwright.config';

/**
 * Issue 25, "Standard formats in and out" (docs/formats.md): a member takes a book away as a read-along
 * EPUB from its page (a visitor gets the sample), an administrator brings a read-along EPUB in on the
 * book import page and reads it in the reader, and a member makes an app password that a reading app
 * uses on the OPDS catalogue, until it is revoked.
 */

const BOOK = 'der-leuchtturmwarter';
/** The book the import journey exports and brings back in: no other journey counts its language. */
const IMPORTED = 'una-estate-a-napoli';
/** A book whose audiobook no other journey asks for, so that its first request is the one that starts it. */
const AUDIOBOOK = 'el-gato-de-la-plaza';

let admin: Session;
let scratch: string;

// Playwright turns Chromium's back/forward cache off; it is on here, as a reader has it, so that the app
// password journeys show that Back does not bring a password back (a browser's launch is per file).
test.use({
  launchOptions: { ...config.use?.launchOptions, ignoreDefaultArgs: ['--disable-back-forward-cache'] },
});

test.beforeAll(async ({ request }) => {
  admin = await adminSession(request);
  scratch = mkdtempSync(join(tmpdir(), 'lingonovel-formats-'));
});
test.afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Signs a new member up (and puts their plan in `status`); answers the account and its session. */
async function signedUp(page: Page, label: string, status?: string): Promise<[Account, Session]> {
  const account = newAccount(label);
  const id = await signUpByApi(page.request, account);
  if (status) {
    const trialEnd = Math.floor(Date.now() / 1000) + 86400 * 20;
    await setPlan(page.request, id, status, { trialEnd });
  }
  const login = await page.request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  return [account, (await login.json()) as Session];
}

/** A new member whose session every page of the journey starts with. */
async function member(page: Page, label: string, status?: string): Promise<Account> {
  const [account, session] = await signedUp(page, label, status);
  await useSession(page, session);
  return account;
}

/** A new member signed in once, as the sign-in form does: signing out then lasts. */
async function memberOnce(page: Page, label: string): Promise<[Account, Session]> {
  const [account, session] = await signedUp(page, label);
  await page.goto('/');
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('token', token);
    localStorage.setItem('user', JSON.stringify(user));
  }, session);
  return [account, session];
}

/** The text of the element that has the keyboard's focus. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');

/** The book page's answer while an audiobook is made (docs/formats.md, Downloads). */
const beingMade = (message: string, seconds: number) => ({
  status: 202,
  headers: { 'Retry-After': String(seconds), 'Cache-Control': 'private, no-store' },
  contentType: 'application/json',
  body: JSON.stringify({ message }),
});

/** An MP4 file begins with its `ftyp` box. */
const isMp4 = (path: string) => readFileSync(path).subarray(4, 8).toString('latin1') === 'ftyp';

/** The names of an EPUB's entries, in the order the zip holds them. */
async function epubEntries(path: string): Promise<string[]> {
  return (await unzip(readFileSync(path))).map((item) => item.name);
}

const chapterDocuments = (names: string[]) => names.filter((name) => /chapter-\d+\.xhtml$/.test(name));

async function noAxeViolations(page: Page): Promise<void> {
  const found = await new AxeBuilder({ page }).analyze();
  expect(
    found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

async function fitsTheScreen(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
}

const basic = (email: string, password: string) =>
  `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

async function opds(request: APIRequestContext, email: string, password: string) {
  return request.get('/api/v1/opds', { headers: { Authorization: basic(email, password) } });
}

test.describe('the book page', () => {
  test.use(LAPTOP);

  test('a trialing member downloads the whole read-along EPUB from the book page', async ({ page }) => {
    test.setTimeout(120_000);
    await member(page, 'epub', 'trialing');
    await page.goto(`/book-detail/${BOOK}`);
    const section = page.getByRole('region', { name: 'Take it with you' });
    await expect(section.getByText(/highlights each phrase as it is read aloud/)).toBeVisible();
    // The page is the visitor's, shared; the button becomes the whole book's once the plan is known.
    const button = section.getByRole('link', { name: 'Download the read-along EPUB' });
    await expect(button).toBeVisible();
    const download = page.waitForEvent('download', { timeout: 90_000 });
    await button.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.epub$/);
    const names = await epubEntries(await file.path());
    expect(names[0]).toBe('mimetype');
    expect(chapterDocuments(names).length).toBeGreaterThan(1);
    await expect(section.getByRole('status')).toHaveText('Your download should start now.');
  });

  test('one click makes the audiobook, shows the wait, and downloads it by itself once it is ready', async ({
    page,
  }) => {
    // A first build on a busy machine takes minutes: the page waits for it (take-away.ts, GIVE_UP_AFTER_S).
    test.setTimeout(330_000);
    await member(page, 'm4b', 'trialing');
    await page.goto(`/book-detail/${AUDIOBOOK}`);
    const section = page.getByRole('region', { name: 'Take it with you' });
    const button = section.getByRole('link', { name: 'Download the audiobook (M4B)' });
    await expect(button).toBeVisible();
    const first = page.waitForResponse(
      (r) => new URL(r.url()).pathname === `/api/v1/downloads/${AUDIOBOOK}/audiobook`,
    );
    const download = page.waitForEvent('download', { timeout: 310_000 });
    await button.click();
    // Nobody asked for this book's audiobook before: the server starts making it and says so, and the page
    // shows how long it has waited. (Should it have been ready at once, the click saves it at once.)
    if ((await first).status() === 202) {
      await expect(section.getByRole('status')).toHaveText(
        /^The audiobook is being made; it should be ready in about \d+ s\.$/,
      );
      await expect(section.getByRole('progressbar', { name: 'Making the audiobook' })).toBeVisible();
      await expect(section.getByText(/^\d+ s (of about|: longer than the estimate of) \d+ s/)).toBeVisible();
    }
    // No second click: the file comes by itself.
    expect(isMp4(await (await download).path())).toBe(true);
    await expect(section.getByRole('status')).toHaveText('Your download should start now.');
    await expect(section.getByRole('progressbar')).toBeHidden();
  });

  test("while the audiobook is made, the page shows the server's word and the wait, one download at a time, then saves it", async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const path = `/api/v1/downloads/${BOOK}/audiobook`;
    // The visitor's sample is made first, so that once the two answers below are given, the server's is the file.
    await expect
      .poll(async () => (await page.request.get(path, { headers: { Range: 'bytes=0-0' } })).status(), {
        timeout: 120_000,
        intervals: [1000],
      })
      .toBe(206);
    const words = [
      'The audiobook is being made; it should be ready in about 600 s.',
      'The last attempt to make this audiobook failed; it is tried again in 1 s.',
    ];
    // Each answer after the first waits for the journey to let it go: the page is checked between turns.
    const turns = [0, 1, 2].map(() => {
      let go!: () => void;
      const gate = new Promise<void>((resolve) => (go = resolve));
      return { gate, go };
    });
    turns[0].go();
    let asked = 0;
    await page.route(
      (url) => url.pathname === path,
      async (route) => {
        // The page's look at whether it is ready (one byte); the download itself goes through untouched.
        if (!route.request().headers()['range']) return route.continue();
        const turn = asked++;
        await turns[Math.min(turn, 2)].gate;
        // 600 s said, 1 s waited: the estimate is shown whole, only the pause between turns is capped.
        await (turn < words.length ? route.fulfill(beingMade(words[turn], 1)) : route.continue());
      },
    );
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.goto(`/book-detail/${BOOK}`);
    const section = page.getByRole('region', { name: 'Take it with you' });
    const status = section.getByRole('status');
    const audiobook = section.getByRole('link', { name: 'Download the sample audiobook (chapter 1)' });
    const epub = section.getByRole('link', { name: 'Download the sample EPUB (chapter 1)' });
    const download = page.waitForEvent('download');
    await audiobook.click();
    await expect(status).toHaveText(words[0]);
    // The wait shows as a bar, with the seconds against the server's estimate (its Retry-After).
    const progress = section.getByRole('progressbar', { name: 'Making the audiobook' });
    await expect(progress).toBeVisible();
    await expect(section.getByText(/^\d+ s (of about|: longer than the estimate of) 1 s/)).toBeVisible();
    await expect(audiobook).toHaveAttribute('aria-disabled', 'true');
    await expect(epub).toHaveAttribute('aria-disabled', 'true');
    // aria-disabled, the link can still be followed: the keyboard does, and is answered.
    await epub.focus();
    await page.keyboard.press('Enter');
    await expect(status).toHaveText('One download at a time: please wait until this one is ready.');
    turns[1].go();
    await expect(status).toHaveText(words[1]);
    turns[2].go();

    // Ready after the wait: saved by itself, from the one click.
    expect(isMp4(await (await download).path())).toBe(true);
    await expect(status).toHaveText('Your download should start now.');
    await expect(progress).toBeHidden();
    await expect(audiobook).not.toHaveAttribute('aria-disabled');
    expect(downloads).toBe(1);
    // Two answers of 202, then the one that found it ready: no second look, no second click.
    expect(asked).toBe(3);
  });

  test('a download the server cannot make says why, rather than that it started', async ({ page }) => {
    await member(page, 'nolink', 'trialing');
    const why = 'ffmpeg is not installed on this server, so books cannot be downloaded.';
    await page.route(`**/api/v1/downloads/${BOOK}/link`, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: why }) }),
    );
    await page.goto(`/book-detail/${BOOK}`);
    const section = page.getByRole('region', { name: 'Take it with you' });
    await section.getByRole('link', { name: 'Download the read-along EPUB' }).click();
    await expect(section.getByRole('status')).toHaveText(why);
  });

  test('a reader whose session expired stays on the book page, and gets the sample as a visitor', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const [, session] = await signedUp(page, 'expired', 'trialing');
    await useSession(page, { ...session, token: 'an.expired.token' });
    const profile = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/user/profile');
    await page.goto(`/book-detail/${BOOK}`);
    expect((await profile).status()).toBe(401);
    const section = page.getByRole('region', { name: 'Take it with you' });
    await expect(section.getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/book-detail/${BOOK}$`));
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await section.getByRole('link', { name: 'Download the sample EPUB (chapter 1)' }).click();
    expect(chapterDocuments(await epubEntries(await (await download).path()))).toHaveLength(1);
    await expect(page).toHaveURL(new RegExp(`/book-detail/${BOOK}$`));
  });

  test('a visitor gets the sample: chapter 1 alone, and the button says so', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`/book-detail/${BOOK}`);
    const section = page.getByRole('region', { name: 'Take it with you' });
    const button = section.getByRole('link', { name: 'Download the sample EPUB (chapter 1)' });
    await expect(section.getByRole('link', { name: 'Sign in' })).toBeVisible();
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await button.click();
    const names = await epubEntries(await (await download).path());
    expect(names[0]).toBe('mimetype');
    expect(chapterDocuments(names)).toHaveLength(1);
  });

  test('a member without a plan is told the sample is what they get', async ({ page }) => {
    await member(page, 'noplan');
    await page.goto(`/book-detail/${BOOK}`);
    const section = page.getByRole('region', { name: 'Take it with you' });
    await expect(section.getByText('the whole book comes with Premium Plus')).toBeVisible();
    await expect(section.getByRole('link', { name: 'Download the sample EPUB (chapter 1)' })).toBeVisible();
  });

  test("the free chapter's subtitles are one click away", async ({ page }) => {
    await page.goto(`/book-detail/${BOOK}`);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'WebVTT subtitles of chapter 1' }).click();
    const text = readFileSync(await (await download).path(), 'utf8');
    expect(text.startsWith('WEBVTT')).toBe(true);
  });
});

test.describe('without JavaScript', () => {
  test.use({ ...LAPTOP, javaScriptEnabled: false });

  test('the audiobook link, while it is made, shows the wait instead of saving it as the file', async ({
    page,
  }) => {
    const path = `/api/v1/downloads/${BOOK}/audiobook`;
    const word = 'The audiobook is being made; it should be ready in about 42 s.';
    await page.route(
      (url) => url.pathname === path,
      (route) => route.fulfill(beingMade(word, 42)),
    );
    await page.goto(`/book-detail/${BOOK}`);
    await page.getByRole('link', { name: 'Download the sample audiobook (chapter 1)' }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByText(word)).toBeVisible();
  });
});

test("an administrator takes the whole book and a locked chapter's subtitles from the admin book page", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await useSession(page, admin);
  // The link is held until the button has been seen busy, and still focused: a disabled button would drop it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/v1/downloads/${BOOK}/link`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/admin/book-detail/${BOOK}`);
  const button = page.getByRole('button', { name: 'Download the read-along EPUB' });
  const epub = page.waitForEvent('download', { timeout: 90_000 });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByRole('button', { name: 'Download the audiobook (M4B)' })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await expect(button).toBeFocused();
  release();
  expect(chapterDocuments(await epubEntries(await (await epub).path())).length).toBeGreaterThan(1);
  await expect(button).not.toHaveAttribute('aria-disabled');
  await expect(button).toBeFocused();
  // Chapter 2 is locked: its subtitles need the administrator's token, which a plain link cannot carry.
  const lrc = page.waitForEvent('download');
  await page.getByRole('button', { name: 'LRC subtitles of chapter 2' }).click();
  const file = await lrc;
  expect(file.suggestedFilename()).toBe(`${BOOK}-chapter-2.lrc`);
  expect(readFileSync(await file.path(), 'utf8')).toMatch(/^\[\d{2}:\d{2}\.\d{2}\]\S/m);
});

test('an administrator imports a read-along EPUB and reads the new book', async ({ page }) => {
  test.setTimeout(240_000);
  // The administrator's EPUB of a demo book, as a publisher's read-along EPUB would come.
  const epub = await page.request.get(`/api/v1/downloads/${IMPORTED}/epub`, {
    headers: { Authorization: `Bearer ${admin.token}` },
    timeout: 120_000,
  });
  expect(epub.status(), await epub.text().catch(() => '')).toBe(200);
  const path = join(scratch, `${IMPORTED}.epub`);
  writeFileSync(path, await epub.body());

  await useSession(page, admin);
  await page.goto('/admin/books/import');
  await expect(page.getByText(/read-along EPUB \(EPUB 3 with Media Overlays/)).toBeVisible();
  await noAxeViolations(page);
  await page.getByLabel('Book zip or EPUB').setInputFiles(path);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('heading', { name: /^Preview: Una Estate a Napoli/ })).toBeVisible({
    timeout: 120_000,
  });
  await expect(page.getByText('The book is ready to import.')).toBeVisible();
  await noAxeViolations(page);
  await page.getByRole('button', { name: 'Import the book' }).click();
  await expect(page.getByText(/has been imported/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('link', { name: 'Open the book' }).click();
  await expect(page).toHaveURL(/\/admin\/book-detail\/[^/]+$/);
  const code = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  expect(code).not.toBe(IMPORTED);

  await page.goto(`/read/${code}/1`);
  const second = page.locator('li#p-2');
  await second.getByRole('button').click(PLAY_ICON);
  await playing(page).toBe(true);
  await expect(second).toHaveClass(/current/);
});

test.describe('app passwords', () => {
  test.use(LAPTOP);

  /** Leaves the page and comes back with Back; fails unless the page came back from the cache, as it was. */
  async function awayAndBack(page: Page, leave: () => Promise<unknown>): Promise<void> {
    await page.evaluate(() => Object.assign(window, { kept: true }));
    await leave();
    // Restored from the cache, a page fires no `load`.
    await page.goBack({ waitUntil: 'commit' });
    await expect(page).toHaveURL(/\/profile$/);
    await expect.poll(() => page.evaluate(() => 'kept' in window)).toBe(true);
  }

  test('a member makes an app password, a reading app uses it on OPDS, and it stops once revoked', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const [account, session] = await memberOnce(page, 'opds');
    await page.goto('/profile');
    const panel = page.getByRole('region', { name: 'App passwords' });
    await expect(panel.getByText('No app passwords yet.')).toBeVisible();
    // What to type into the app: the catalogue's address and the member's email.
    await expect(panel.getByText(/\/api\/v1\/opds$/)).toBeVisible();
    await expect(panel.getByText(account.email)).toBeVisible();

    // A name of spaces alone passes the browser's `required` and is the server's 422, shown by the field.
    await panel.getByLabel('App name').fill('   ');
    await panel.getByRole('button', { name: 'Create app password' }).click();
    await expect(panel.getByText('The name field is required.')).toBeVisible();
    await expect(panel.getByLabel('App name')).toHaveAttribute('aria-invalid', 'true');

    await panel.getByLabel('App name').fill('KOReader');
    await panel.getByRole('button', { name: 'Create app password' }).click();
    const shown = panel.getByText(/^[a-z2-7]{4}(-[a-z2-7]{4}){5}$/);
    await expect(shown).toBeVisible();
    const password = (await shown.textContent())!;
    // The focus goes to the new password's message, which a screen reader reads out.
    expect(await focused(page)).toContain('Your app password for KOReader');
    await expect(panel.getByText('Password:', { exact: true })).toBeVisible();
    await panel.getByRole('button', { name: 'Copy the password' }).click();
    await expect(panel.getByText('Copied.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await noAxeViolations(page);

    // Shown once: the list the server gives holds no password, nor anything made from it.
    const listed = await page.request.get('/api/v1/user/app-passwords', {
      headers: { Authorization: `Bearer ${session.token}` },
    });
    const { data } = (await listed.json()) as { data: Record<string, unknown>[] };
    expect(data.map((item) => Object.keys(item).sort())).toEqual([
      ['created_at', 'id', 'last_used_at', 'name'],
    ]);
    expect(JSON.stringify(data)).not.toContain(password.slice(0, 4));
    // Nor does Back, after another page, bring it back from the browser's cache.
    await awayAndBack(page, () => page.getByRole('link', { name: 'Books' }).first().click());
    await expect(panel.getByRole('list', { name: 'Your app passwords' })).toContainText('KOReader');
    await expect(panel.getByText(password)).toHaveCount(0);
    await page.reload();
    await expect(panel.getByText('Last used: never')).toBeVisible();
    await expect(panel.getByText(password)).toHaveCount(0);

    const answer = await opds(page.request, account.email, password);
    expect(answer.status(), await answer.text()).toBe(200);
    await page.reload();
    await expect(panel.getByText('Last used: never')).toHaveCount(0);

    await panel.getByRole('button', { name: 'Revoke KOReader' }).click();
    await expect(panel.getByRole('group', { name: 'Revoke KOReader?' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Keep it' })).toBeFocused();
    await panel.getByRole('button', { name: 'Yes, revoke KOReader' }).click();
    await expect(panel.getByText('The app password has been revoked.')).toBeVisible();
    await expect(panel.getByText('No app passwords yet.')).toBeVisible();
    // The row is gone; the focus is on the message that says so, not lost with it.
    expect(await focused(page)).toBe('The app password has been revoked.');

    const refused = await opds(page.request, account.email, password);
    expect(refused.status()).toBe(401);
    expect(refused.headers()['www-authenticate']).toMatch(/^Basic realm="Lingonovel"/);
  });

  test('the password goes when the member is done or signs out; one revoked elsewhere is said so', async ({
    page,
  }) => {
    // A page on plain http has no navigator.clipboard: Copy then selects the password.
    await page.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }),
    );
    const [, session] = await memberOnce(page, 'done');
    await page.goto('/profile');
    const panel = page.getByRole('region', { name: 'App passwords' });
    const shown = panel.getByText(/^[a-z2-7]{4}(-[a-z2-7]{4}){5}$/);
    const create = async (name: string) => {
      await panel.getByLabel('App name').fill(name);
      await panel.getByRole('button', { name: 'Create app password' }).click();
      await expect(shown).toBeVisible();
      return (await shown.textContent())!;
    };

    const thorium = await create('Thorium');
    await panel.getByRole('button', { name: 'Copy the password' }).click();
    await expect(panel.getByText(/the password is selected, copy it with Ctrl\+C/)).toBeVisible();
    expect(await page.evaluate(() => getSelection()?.toString())).toBe(thorium);
    await panel.getByRole('button', { name: 'Done, I’ve copied it' }).click();
    await expect(shown).toHaveCount(0);
    await expect(panel.getByLabel('App name')).toBeFocused();

    // Revoked from another tab, and another made there: this page's list is behind.
    const auth = { Authorization: `Bearer ${session.token}` };
    const list = (await (await page.request.get('/api/v1/user/app-passwords', { headers: auth })).json()) as {
      data: { id: number; name: string }[];
    };
    const gone = await page.request.delete(`/api/v1/user/app-passwords/${list.data[0].id}`, {
      headers: auth,
    });
    expect(gone.status()).toBe(200);
    const other = await page.request.post('/api/v1/user/app-passwords', {
      headers: auth,
      data: { name: 'Readest' },
    });
    expect(other.status()).toBe(200);
    await panel.getByRole('button', { name: 'Revoke Thorium' }).click();
    await panel.getByRole('button', { name: 'Yes, revoke Thorium' }).click();
    await expect(panel.getByText('It was already revoked.')).toBeVisible();
    await expect(panel.getByRole('list', { name: 'Your app passwords' })).toContainText('Readest');
    await expect(panel.getByRole('list', { name: 'Your app passwords' })).not.toContainText('Thorium');

    // Signing out with a password on the screen, then Back: the page comes back without it.
    const kobo = await create('Kobo');
    await awayAndBack(page, async () => {
      await page.getByRole('button', { name: 'Logout' }).click();
      await expect(page).toHaveURL(/\/login/);
    });
    await expect(panel.getByText(kobo)).toHaveCount(0);
    await expect(shown).toHaveCount(0);
  });
});

test.describe('no axe violations, on a phone and a laptop', () => {
  for (const [name, screen] of [
    ['phone', PHONE],
    ['laptop', LAPTOP],
  ] as const) {
    test.describe(name, () => {
      test.use(screen);

      test("the book page's downloads, for a visitor and a member", async ({ page }) => {
        await page.goto(`/book-detail/${BOOK}`);
        await expect(page.getByRole('heading', { name: 'Take it with you' })).toBeVisible();
        await noAxeViolations(page);
        await fitsTheScreen(page);
        await member(page, `axe-${name}`, 'trialing');
        await page.goto(`/book-detail/${BOOK}`);
        await expect(page.getByRole('link', { name: 'Download the audiobook (M4B)' })).toBeVisible();
        await noAxeViolations(page);
        await fitsTheScreen(page);
      });

      test('the profile with an app password just made', async ({ page }) => {
        await member(page, `axe-profile-${name}`);
        await page.goto('/profile');
        const panel = page.getByRole('region', { name: 'App passwords' });
        await panel.getByLabel('App name').fill('Thorium on my laptop');
        await panel.getByRole('button', { name: 'Create app password' }).click();
        await expect(panel.getByRole('button', { name: 'Copy the password' })).toBeVisible();
        await noAxeViolations(page);
        await fitsTheScreen(page);
      });

      test("the admin book page's downloads and subtitles", async ({ page }) => {
        await useSession(page, admin);
        await page.goto(`/admin/book-detail/${BOOK}`);
        await expect(page.getByRole('button', { name: 'Download the read-along EPUB' })).toBeVisible();
        await expect(page.getByRole('button', { name: 'WebVTT subtitles of chapter 1' })).toBeVisible();
        await noAxeViolations(page);
        await fitsTheScreen(page);
      });
    });
  }
});
