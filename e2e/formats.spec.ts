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
import { playing } from './helpers/reader';
import { LAPTOP, PHONE } from './helpers/screens';

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

test.beforeAll(async ({ request }) => {
  admin = await adminSession(request);
  scratch = mkdtempSync(join(tmpdir(), 'lingonovel-formats-'));
});
test.afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Signs a new member up (and puts their plan in `status`), then keeps the session for the pages. */
async function member(page: Page, label: string, status?: string): Promise<Account> {
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
  await useSession(page, (await login.json()) as Session);
  return account;
}

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
    await expect(section.getByRole('status')).toHaveText('Your download has started.');
  });

  test('the audiobook is made on the first click, the page says so, then it downloads', async ({ page }) => {
    test.setTimeout(180_000);
    await member(page, 'm4b', 'trialing');
    await page.goto(`/book-detail/${AUDIOBOOK}`);
    const section = page.getByRole('region', { name: 'Take it with you' });
    const button = section.getByRole('link', { name: 'Download the audiobook (M4B)' });
    await expect(button).toBeVisible();
    const first = page.waitForResponse(
      (r) => new URL(r.url()).pathname === `/api/v1/downloads/${AUDIOBOOK}/audiobook`,
    );
    const download = page.waitForEvent('download', { timeout: 150_000 });
    await button.click();
    // Nobody asked for this book's audiobook before: the server starts making it and answers 202.
    expect((await first).status()).toBe(202);
    await expect(section.getByRole('status')).toHaveText(/^Your audiobook is being made… \(about \d+ s\)$/);
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.m4b$/);
    // An MP4 file begins with its `ftyp` box.
    expect(
      readFileSync(await file.path())
        .subarray(4, 8)
        .toString('latin1'),
    ).toBe('ftyp');
    await expect(section.getByRole('status')).toHaveText('Your download has started.');
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

test("an administrator takes the whole book and a locked chapter's subtitles from the admin book page", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await useSession(page, admin);
  await page.goto(`/admin/book-detail/${BOOK}`);
  const epub = page.waitForEvent('download', { timeout: 90_000 });
  await page.getByRole('button', { name: 'Download the read-along EPUB' }).click();
  expect(chapterDocuments(await epubEntries(await (await epub).path())).length).toBeGreaterThan(1);
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
  await second.getByRole('button').click();
  await playing(page).toBe(true);
  await expect(second).toHaveClass(/current/);
});

test.describe('app passwords', () => {
  test.use(LAPTOP);

  test('a member makes an app password, a reading app uses it on OPDS, and it stops once revoked', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const account = await member(page, 'opds', 'trialing');
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
    await panel.getByRole('button', { name: 'Copy the password' }).click();
    await expect(panel.getByText('Copied.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await noAxeViolations(page);

    // Shown once: after a reload, only its name and dates are left.
    await page.reload();
    await expect(panel.getByRole('list', { name: 'Your app passwords' })).toContainText('KOReader');
    await expect(panel.getByText(password)).toHaveCount(0);
    await expect(panel.getByText('Last used: never')).toBeVisible();

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

    const refused = await opds(page.request, account.email, password);
    expect(refused.status()).toBe(401);
    expect(refused.headers()['www-authenticate']).toMatch(/^Basic realm="Lingonovel"/);
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
