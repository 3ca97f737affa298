import AxeBuilder from '@axe-core/playwright';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_START_MS } from '../scripts/test-limits.cjs';
import { boot, stop } from '../server/test/built-server';
import { expect, test } from './helpers/fixtures';
import { PHONE } from './helpers/screens';
import { smallTargets } from './helpers/tap-targets';

/**
 * Issue 35 (docs/deploy.md, "First run"): a new installation, with no administrator and no book, on a
 * 375 px phone. Its own server on an empty folder: the journeys' shared one has the demo's administrator.
 */
test.use(PHONE);
test.describe.configure({ mode: 'serial' });

let server: { child: ChildProcess; url: string; output: () => string };
let storage: string;
const ADMIN = { name: 'Ada Owner', email: 'owner@first-run.test', password: 'Lighthouse-2026!' };

test.beforeAll(async () => {
  test.setTimeout(SERVER_START_MS);
  storage = mkdtempSync(join(tmpdir(), 'lingonovel-first-run-'));
  server = await boot({ STORAGE_DIR: storage, HOST: '127.0.0.1' });
});

test.afterAll(async () => {
  if (server) await stop(server.child);
  if (storage) rmSync(storage, { recursive: true, force: true });
});

const inAdmin = (url: URL) => url.pathname.startsWith('/admin');

/** The code the boot log printed, as its reader copies it. */
const setupCode = () => /Setup code: (\S+)/.exec(server.output())?.[1] ?? '';

test('the boot log names the setup code and the page; the empty catalogue says so', async ({ page }) => {
  expect(server.output()).toMatch(/Setup code: [A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/);
  expect(server.output()).toContain('/setup');
  await page.goto(`${server.url}/books`);
  await expect(page.getByText('No books yet.')).toBeVisible();
  await expect(page.getByText('No book matches')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Add the first book' })).toBeHidden();
});

test('a wrong code is refused at its field; the right one creates the administrator once', async ({
  page,
}) => {
  await page.goto(`${server.url}/setup`);
  const code = page.getByLabel('Setup code');
  await code.fill('ABCD-EFGH-JKMN');
  await page.getByLabel('Your name').fill(ADMIN.name);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByLabel('Repeat password').fill(`${ADMIN.password}x`);
  const create = page.getByRole('button', { name: 'Create the administrator' });
  await create.click();
  await expect(
    page.getByRole('link', { name: 'Repeat password: The two passwords do not match.' }),
  ).toBeVisible();

  await page.getByLabel('Repeat password').fill(ADMIN.password);
  await create.click();
  await expect(
    page.getByRole('link', { name: 'Setup code: This is not the setup code the server printed.' }),
  ).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await smallTargets(page)).toEqual([]);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // Typed as read from a log: lower case, without the dashes.
  await code.fill(setupCode().toLowerCase().replace(/-/g, ''));
  await create.click();
  await expect(page.getByText(`Created administrator ${ADMIN.email}: sign in.`)).toBeVisible();
  await page.getByRole('link', { name: 'Sign in to add your first book' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(inAdmin);

  // The catalogue's empty state now offers the administrator the way in.
  await page.goto(`${server.url}/books`);
  await page.getByRole('link', { name: 'Add the first book' }).click();
  await page.waitForURL(inAdmin);

  // Setup is over: the page says so, and the API refuses a second administrator.
  await page.goto(`${server.url}/setup`);
  await expect(page.getByText('Lingonovel is set up already.')).toBeVisible();
  await expect(page.getByLabel('Setup code')).toHaveCount(0);
  const again = await page.request.post(`${server.url}/api/v1/setup`, {
    data: { code: setupCode(), name: 'Mallory', email: 'mallory@first-run.test', password: ADMIN.password },
  });
  expect(again.status()).toBe(409);
});
