import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { SERVER_START_MS } from '../scripts/test-limits.cjs';
import { boot, stop } from '../server/test/built-server';
import { expect, test } from './helpers/fixtures';
import { zip } from './helpers/zip';
import { media } from './helpers/admin';
import { LAPTOP, PHONE } from './helpers/screens';

/**
 * Issue 36: the pages kept as they look. Screenshots of the learner's and the admin's main pages at
 * 375 px and 1280 px, in the light and dark themes, compared with e2e/visual.spec.ts-snapshots/ (made on
 * Debian's Chromium with its fonts; `npx playwright test e2e/visual.spec.ts --update-snapshots` after a
 * change of design, then look at the pictures before committing them). A tolerance of 2% of the pixels
 * survives font hinting and anti-aliasing; a colour, a spacing or a layout that changed does not.
 *
 * Its own server on a fresh demo installation: the journeys' shared one gains books and words as they run.
 */
test.describe.configure({ mode: 'serial' });

const BOOK = 'der-leuchtturmwarter';
const THEMES = ['light', 'dark'] as const;
const TOLERANCE = { maxDiffPixelRatio: 0.02, threshold: 0.25 } as const;

let server: { child: ChildProcess; url: string; output: () => string };
let storage: string;
let admin: { token: string; user: object };
let member: { token: string; user: object };
let chapterId: number;

async function login(email: string, password: string) {
  const response = await fetch(`${server.url}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(await response.text());
  return (await response.json()) as { token: string; user: object };
}

test.beforeAll(async () => {
  test.setTimeout(SERVER_START_MS);
  storage = mkdtempSync(join(tmpdir(), 'lingonovel-visual-'));
  server = await boot({ STORAGE_DIR: storage, HOST: '127.0.0.1' }, ['--demo']);
  const demo = JSON.parse(readFileSync(join(storage, 'demo-admin.json'), 'utf8')) as {
    email: string;
    password: string;
  };
  admin = await login(demo.email, demo.password);
  const account = { name: 'Vera Visual', email: 'vera@visual.test', password: 'Visual-2026!x' };
  const signup = await fetch(`${server.url}/api/v1/user/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...account, repeat_password: account.password }),
  });
  if (signup.status !== 200) throw new Error(await signup.text());
  member = await login(account.email, account.password);
  const headers = { Authorization: `Bearer ${admin.token}` };
  const books = (await (await fetch(`${server.url}/api/v1/admin/book`, { headers })).json()) as {
    data: Array<{ id: number; book_code: string }>;
  };
  const bookId = books.data.find((book) => book.book_code === BOOK)!.id;
  const chapters = (await (
    await fetch(`${server.url}/api/v1/admin/chapter?book_id=${bookId}`, { headers })
  ).json()) as { data: { chapters: Array<{ id: number }> } };
  chapterId = chapters.data.chapters[0].id;
});

test.afterAll(async () => {
  if (server) await stop(server.child);
  if (storage) rmSync(storage, { recursive: true, force: true });
});

/** Pages (one per test, reloaded for each theme) on which the import-preview shot staged its import. */
const staged = new WeakSet<Page>();

interface Shot {
  name: string;
  who: 'visitor' | 'member' | 'admin';
  path: () => string;
  /** Resolves once the page shows what it will keep showing. */
  ready: (page: Page) => Promise<void>;
}

const heading = (page: Page, name: string | RegExp) =>
  expect(page.getByRole('heading', { level: 1, name }).first()).toBeVisible();
const loaded = async (page: Page, name: string | RegExp) => {
  await heading(page, name);
  await expect(page.getByText(/^(Checking your access|Loading)/)).toHaveCount(0);
  // Every image in view decoded, so a cover never shows half-drawn (lazy ones below never load).
  await page.evaluate(() =>
    Promise.all(
      [...document.images]
        .filter((image) => image.getBoundingClientRect().top < innerHeight)
        .map((image) => image.decode().catch(() => {})),
    ),
  );
};

const SHOTS: Shot[] = [
  { name: 'home', who: 'visitor', path: () => '/', ready: (page) => loaded(page, /./) },
  { name: 'books', who: 'visitor', path: () => '/books', ready: (page) => loaded(page, 'Books') },
  {
    name: 'book',
    who: 'visitor',
    path: () => `/book-detail/${BOOK}`,
    ready: (page) => loaded(page, /Leuchtturm/),
  },
  {
    name: 'reader',
    who: 'visitor',
    path: () => `/read/${BOOK}/1`,
    ready: async (page) => {
      await loaded(page, /./);
      await expect(page.locator('.phrases li').first()).toBeVisible();
    },
  },
  { name: 'review', who: 'member', path: () => '/review', ready: (page) => loaded(page, /./) },
  { name: 'words', who: 'member', path: () => '/words', ready: (page) => loaded(page, /./) },
  { name: 'dashboard', who: 'member', path: () => '/dashboard', ready: (page) => loaded(page, /./) },
  { name: 'downloads', who: 'member', path: () => '/downloads', ready: (page) => loaded(page, /./) },
  { name: 'admin-books', who: 'admin', path: () => '/admin/books', ready: (page) => loaded(page, 'Books') },
  {
    name: 'admin-book',
    who: 'admin',
    path: () => `/admin/book-detail/${BOOK}`,
    ready: async (page) => {
      await loaded(page, /Leuchtturm/);
      await expect(
        page
          .getByRole('table', { name: /^Chapters of/ })
          .getByRole('rowheader')
          .first(),
      ).toBeVisible();
    },
  },
  {
    name: 'import-preview',
    who: 'admin',
    path: () => `/admin/chapter/phrase/import/${chapterId}`,
    ready: async (page) => {
      await loaded(page, 'Import phrases');
      const preview = page.getByRole('heading', { name: 'Preview: 2 phrases' });
      // The staged import outlives a reload: the second theme's page shows the form until its look at the
      // kept import answers, then the preview. Waited for, not raced: under load the form was still there
      // when the test chose to upload, and the preview replaced it under the click.
      if (staged.has(page)) {
        await expect(preview).toBeVisible();
        return preview.scrollIntoViewIfNeeded();
      }
      const clip = readFileSync(media.clip);
      const tsv =
        'phrase\tdictionary\taudio\nDer Zug fährt ab.\tZug — train | abfahren — to leave\t1.mp3\nEr winkt.\twinken — to wave\t2.mp3\n';
      await page.getByLabel('Text file (TSV, CSV or plain text)').setInputFiles({
        name: 'chapter.tsv',
        mimeType: 'text/tab-separated-values',
        buffer: Buffer.from(tsv),
      });
      await page.getByLabel('Clips: a zip, or several files').setInputFiles({
        name: 'clips.zip',
        mimeType: 'application/zip',
        buffer: await zip({ '1.mp3': clip, '2.mp3': clip }),
      });
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect(preview).toBeVisible();
      staged.add(page);
      await preview.scrollIntoViewIfNeeded();
    },
  },
];

for (const [width, screen] of [
  [375, PHONE],
  [1280, LAPTOP],
] as const) {
  test.describe(`at ${width} px`, () => {
    test.use(screen);
    for (const shot of SHOTS) {
      test(`${shot.name} looks as it did, light and dark`, async ({ page }) => {
        if (shot.who !== 'visitor') {
          const session = shot.who === 'admin' ? admin : member;
          await page.addInitScript((value) => {
            localStorage.setItem('token', value.token);
            localStorage.setItem('user', JSON.stringify(value.user));
          }, session);
        }
        for (const theme of THEMES) {
          await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
          await page.goto(server.url + shot.path());
          await shot.ready(page);
          await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
          await expect(page).toHaveScreenshot(`${shot.name}-${width}-${theme}.png`, {
            ...TOLERANCE,
            // What changes by itself: the copyright year, the chart's first day, the device's storage.
            mask: [page.locator('.site-footer p, .chart-x > span:first-child, [data-storage]')],
          });
        }
      });
    }
  });
}
