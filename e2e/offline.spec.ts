import AxeBuilder from '@axe-core/playwright';
import { chromium, type APIRequestContext, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newAccount, signIn, signUpByApi, type Account } from './helpers/accounts';
import { expect, test } from './helpers/fixtures';
import { setPlan } from './helpers/plans';
import { queuedActions, seedQueue } from './helpers/device-queue';
import { controlled, downloadHere } from './helpers/device';
import {
  audioEvents,
  audioState,
  inSettings,
  PLAY_ICON,
  playing,
  recordAudio,
  stopClock,
} from './helpers/reader';

// The offline journeys run with the service worker (the others block it, playwright.config.ts). Each has a
// browser context of its own, so its caches and IndexedDB start empty.
test.use({ serviceWorkers: 'allow' });
test.describe.configure({ timeout: 120_000 });

interface Chapters {
  book: string;
  free: number;
  locked: number;
}

/** A demo book with a free chapter and a locked one. */
async function demoChapters(request: APIRequestContext): Promise<Chapters> {
  const books = (await (await request.get('/api/v1/guest/list-book')).json()) as {
    data: Array<{ book_code: string }>;
  };
  for (const { book_code } of books.data) {
    const toc = (await (await request.get(`/api/v1/guest/book/${book_code}/chapters`)).json()) as {
      data: { chapters: Array<{ chapter_no: number; free: boolean; phrase_count: number }> };
    };
    const free = toc.data.chapters.find((c) => c.free && c.phrase_count > 0);
    const locked = toc.data.chapters.find((c) => !c.free && c.phrase_count > 0);
    if (free && locked) return { book: book_code, free: free.chapter_no, locked: locked.chapter_no };
  }
  throw new Error('no demo book has a free and a locked chapter');
}

async function trialMember(request: APIRequestContext): Promise<Account & { id: number }> {
  const account = newAccount('offline');
  const id = await signUpByApi(request, account);
  await setPlan(request, id, 'trialing');
  return { ...account, id };
}

/** Downloads a chapter already on the device again (to keep what changed since): Remove, then download. */
async function downloadAgain(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await controlled(page);
  await page.getByRole('button', { name: 'Remove this chapter from this device' }).click();
  await page.getByRole('button', { name: 'Download for offline' }).click();
  await expect(page.getByText('Downloaded: this chapter opens offline.')).toBeVisible({ timeout: 60_000 });
}

/** The download control has drawn its state (its script has run and knows what is on the device). */
const downloadReady = (page: Page) => expect(page.locator('offline-download[data-ready]')).toBeAttached();

/** A size as the pages show it ("38 KB", "1.2 MB"), in bytes; and half its last unit (its rounding). */
function bytesOf(text: string): { bytes: number; rounding: number } {
  const [, figure, unit] = /([\d.]+) (KB|MB)/.exec(text) ?? [];
  expect(unit, `a size in "${text}"`).toBeDefined();
  const scale = unit === 'MB' ? 1024 * 1024 : 1024;
  return { bytes: Number(figure) * scale, rounding: (unit === 'MB' ? 0.05 : 0.5) * scale };
}

/** The `state` store's keys on the device (site/lib/offline/store.ts). */
const stateKeys = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('lingonovel-offline');
        open.onerror = () => reject(new Error('IndexedDB would not open'));
        open.onsuccess = () => {
          const keys = open.result.transaction('state').objectStore('state').getAllKeys();
          keys.onsuccess = () => resolve(keys.result.map(String));
          keys.onerror = () => reject(new Error('IndexedDB would not read'));
        };
      }),
  );

/**
 * Plays the whole chapter on the page: answers its phrases' clips and the clips that sounded (play all
 * goes on into the next chapter when that one is on the device too).
 */
async function playAll(page: Page): Promise<{ clips: string[]; played: string[] }> {
  const clips = await page
    .locator('[data-phrases] li')
    .evaluateAll((items) =>
      items.map((li) => new URL((li as HTMLElement).dataset.audio ?? '', location.href).pathname),
    );
  await page.getByRole('button', { name: 'Play all' }).click();
  await expect
    .poll(async () => (await audioEvents(page)).filter((e) => e.type === 'ended').length, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(clips.length);
  // A clip that stalls and resumes fires "playing" again (a slow machine does it): one start per clip.
  const played = (await audioEvents(page))
    .filter((e) => e.type === 'playing')
    .map((e) => new URL(e.src).pathname)
    .filter((path, i, paths) => path !== paths[i - 1]);
  return { clips, played };
}

/** A member in a trial, signed in, with a free chapter and a locked one of a demo book on the device. */
async function downloadBoth(page: Page, request: APIRequestContext) {
  const chapters = await demoChapters(request);
  const member = await trialMember(request);
  await signIn(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await downloadHere(page, `/read/${chapters.book}/${chapters.free}`);
  await downloadHere(page, `/read/${chapters.book}/${chapters.locked}`);
  return { chapters, member };
}

const cacheNames = (page: Page) => page.evaluate(() => caches.keys());

test('the app installs: a valid manifest, its icons, and a service worker that controls the page', async ({
  request,
}) => {
  const manifest = (await (await request.get('/manifest.webmanifest')).json()) as {
    name: string;
    short_name: string;
    start_url: string;
    scope: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: Array<{ src: string; sizes: string; purpose: string; type: string }>;
  };
  expect(manifest).toMatchObject({
    name: 'Lingonovel',
    short_name: 'Lingonovel',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
  });
  expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  for (const icon of manifest.icons) {
    const png = await request.get(icon.src);
    expect(png.headers()['content-type']).toBe('image/png');
    const body = await png.body();
    // The PNG's own width, from its header: the size the manifest says.
    expect(`${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`).toBe(icon.sizes);
  }
  // Chromium's own installability check. Playwright's contexts are incognito, where nothing installs: a
  // browser profile on disk, as a person's would be.
  const profile = mkdtempSync(join(tmpdir(), 'lingonovel-install-'));
  const { baseURL, launchOptions } = test.info().project.use;
  const browser = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto('/');
    await controlled(page);
    const cdp = await browser.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: unknown[];
    };
    expect(installabilityErrors).toEqual([]);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('a member downloads a free and a locked chapter and reads both offline, every clip from the device', async ({
  page,
  request,
  context,
}) => {
  await recordAudio(page);
  const { chapters } = await downloadBoth(page, request);
  await page.goto(`/book-detail/${chapters.book}`);
  // Each kept chapter marked in the contents, with the icon set's check (no glyph), and the book's button
  // says what is kept.
  await expect(page.locator('ol.contents li', { hasText: 'On this device' })).toHaveCount(2);
  await expect(page.locator('ol.contents .downloaded svg.icon')).toHaveCount(2);
  await expect(page.locator('ol.contents')).not.toContainText('✓');
  await expect(page.getByText(/^2 chapters on this device · \d+ KB$/)).toBeVisible();

  await context.setOffline(true);
  for (const no of [chapters.locked, chapters.free]) {
    await page.goto(`/read/${chapters.book}/${no}`);
    await expect(
      page.getByText('You are offline: pages you visited and your downloads open from this device.'),
    ).toBeVisible();
    const { clips, played } = await playAll(page);
    expect(clips.length).toBeGreaterThan(0);
    expect(played.slice(0, clips.length)).toEqual(clips);
  }

  // A public page visited before (the book's page): from the device, marked as offline.
  await page.goto(`/book-detail/${chapters.book}`);
  await expect(page.locator('ol.contents li').first()).toBeVisible();
  await expect(
    page.getByText('You are offline: pages you visited and your downloads open from this device.'),
  ).toBeVisible();
  // A chapter that was not downloaded: the offline page, with the way to the downloads.
  await page.goto(`/read/${chapters.book}/${chapters.locked + 1}`);
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'see your downloads' })).toHaveAttribute('href', '/downloads');
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await context.setOffline(false);
});

test('/downloads lists what is kept and deletes it, the storage figure going down', async ({
  page,
  request,
}) => {
  const chapters = await demoChapters(request);
  await downloadHere(page, `/read/${chapters.book}/${chapters.free}`);
  await page.goto('/downloads');
  const usage = () => page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
  const before = await usage();
  await expect(page.getByRole('heading', { level: 2 })).toHaveCount(1);
  await expect(page.getByText(/^Downloads: \d+ KB$/)).toBeVisible();
  await expect(
    page.getByText(
      /^All of this site on this device \(downloads, pages visited, the app itself\): [\d.]+ (KB|MB), of /,
    ),
  ).toBeVisible();
  // Deleting is a quiet action, not the page's blue button.
  await expect(page.getByRole('button', { name: /^Delete chapter/ })).not.toHaveClass(/(^|\s)button(\s|$)/);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByRole('button', { name: /^Delete chapter/ }).click();
  await expect(page.getByText('Nothing is downloaded yet.')).toBeVisible();
  await expect(page.getByText(/^Downloads:/)).toHaveCount(0);
  await expect.poll(usage).toBeLessThan(before);
  const kept = await page.evaluate(async () => {
    const cache = await caches.open('lingonovel-free-v1');
    return (await cache.keys()).length;
  });
  expect(kept).toBe(0);
});

test("/downloads sizes add up: each chapter is what its download stored, the book their sum, the total the books'", async ({
  page,
  request,
}) => {
  const { chapters, member } = await downloadBoth(page, request);
  await page.goto('/downloads');
  const book = page.locator('.book-downloads');
  await expect(book).toHaveCount(1);
  const rows = await book.locator('li .meta').allTextContents();
  expect(rows).toHaveLength(2);
  const figures = rows.map(bytesOf);
  const bookFigure = bytesOf(await book.locator(':scope > p.meta').innerText());
  expect(await book.locator(':scope > p.meta').innerText()).toMatch(/^2 chapters · /);
  const total = bytesOf(await page.getByText(/^Downloads: /).innerText());
  // Each figure is rounded to its unit: the chapters add up to the book, and the book to the total,
  // within those roundings.
  const chaptersSum = figures.reduce((sum, f) => sum + f.bytes, 0);
  const slack = figures.reduce((sum, f) => sum + f.rounding, 0) + bookFigure.rounding;
  expect(Math.abs(chaptersSum - bookFigure.bytes)).toBeLessThanOrEqual(slack);
  expect(Math.abs(bookFigure.bytes - total.bytes)).toBeLessThanOrEqual(bookFigure.rounding + total.rounding);
  // And the total is what the two downloads stored: clips, data, translations and pages, in the free
  // cache and the member's (no review cards were kept: the member saved none).
  const stored = await page.evaluate(
    async (names) => {
      let bytes = 0;
      for (const name of names)
        for (const request of await (await caches.open(name)).keys())
          bytes += (await (await (await caches.open(name)).match(request))!.blob()).size;
      return bytes;
    },
    ['lingonovel-free-v1', `lingonovel-member-${member.id}-v1`],
  );
  expect(Math.abs(stored - total.bytes)).toBeLessThanOrEqual(total.rounding);
  // The reader's button says the same size as /downloads for its chapter.
  const freeRow = await book
    .locator('li', { hasText: `Chapter ${chapters.free}:` })
    .locator('.meta')
    .innerText();
  await page.goto(`/read/${chapters.book}/${chapters.free}`);
  await expect(page.getByText(`Downloaded · ${freeRow.split(' · ')[0]}`, { exact: true })).toBeVisible();
});

test('the download button shows its state: a percentage, then "Downloaded · size · Remove", on later visits too, and follows the chapter', async ({
  page,
  request,
}) => {
  const chapters = await demoChapters(request);
  const reader = `/read/${chapters.book}/${chapters.free}`;
  await page.goto(reader);
  await controlled(page);
  await downloadReady(page);
  // Every state the control goes through, as it draws it.
  await page.evaluate(() => {
    const control = document.querySelector('offline-download') as HTMLElement;
    const states: string[] = [control.dataset.state ?? ''];
    (window as unknown as { states: string[] }).states = states;
    new MutationObserver(() => {
      if (states.at(-1) !== control.dataset.state) states.push(control.dataset.state ?? '');
    }).observe(control, { attributes: true, attributeFilter: ['data-state'] });
  });
  await page.getByRole('button', { name: 'Download for offline' }).click();
  await expect(page.getByText('Downloaded: this chapter opens offline.')).toBeVisible({ timeout: 60_000 });
  expect(await page.evaluate(() => (window as unknown as { states: string[] }).states)).toEqual([
    'start',
    'running',
    'kept',
  ]);
  await expect(page.locator('offline-download [data-figures]')).toHaveText(
    /^100% · (\d+) of \1 clips · \d+ KB$/,
  );
  const kept = page.getByText(/^Downloaded · \d+ KB$/);
  await expect(kept).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download for offline' })).toHaveCount(0);
  await expect(page.locator('offline-download [data-kept] svg.icon')).toHaveCount(1);

  // Another visit: the same state from the start.
  await page.reload();
  await expect(kept).toBeVisible();
  const remove = page.getByRole('button', { name: 'Remove this chapter from this device' });
  await expect(remove).toHaveText('Remove');
  expect((await new AxeBuilder({ page }).include('offline-download').analyze()).violations).toEqual([]);

  // Play all on into the next chapter (chapter-view.ts): the control follows the chapter the page shows.
  // A locked one, for a visitor: no button; back on the kept one, its state.
  const showChapter = (no: number, free: boolean) =>
    page.evaluate(
      ([no, free]) => {
        (document.querySelector('reader-app') as HTMLElement).dataset.free = String(free);
        document.querySelector('offline-download')!.setAttribute('data-chapter', String(no));
      },
      [no, free] as const,
    );
  await showChapter(chapters.locked, false);
  await expect(page.locator('offline-download')).toBeHidden();
  await showChapter(chapters.free, true);
  await expect(kept).toBeVisible();

  // Remove: the copy leaves the device, and the button is back.
  await remove.click();
  await expect(page.getByRole('button', { name: 'Download for offline' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download for offline' })).toBeFocused();
  await expect(kept).toBeHidden();
  await page.goto('/downloads');
  await expect(page.getByText('Nothing is downloaded yet.')).toBeVisible();
});

test('a locked chapter offers no download to a visitor or a member without the plan; the book page offers each what they may open', async ({
  page,
  request,
}) => {
  const chapters = await demoChapters(request);
  const toc = (await (await request.get(`/api/v1/guest/book/${chapters.book}/chapters`)).json()) as {
    data: { chapters: Array<{ free: boolean }> };
  };
  const free = toc.data.chapters.filter((c) => c.free).length;
  const locked = toc.data.chapters.length - free;
  const freeLabel = `Download the free chapter${free === 1 ? '' : 's'} for offline`;

  // A visitor.
  await page.goto(`/read/${chapters.book}/${chapters.locked}`);
  await controlled(page);
  await downloadReady(page);
  await expect(page.getByRole('button', { name: /Download/ })).toHaveCount(0);
  await page.goto(`/read/${chapters.book}/${chapters.free}`);
  await downloadReady(page);
  await expect(page.getByRole('button', { name: 'Download for offline' })).toBeVisible();
  await page.goto(`/book-detail/${chapters.book}`);
  await downloadReady(page);
  await page.getByRole('button', { name: freeLabel }).click();
  await expect(
    page.getByText(
      `Downloaded ${free} chapter${free === 1 ? '' : 's'}. ${locked} need${locked === 1 ? 's' : ''} Premium Plus.`,
    ),
  ).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('ol.contents li', { hasText: 'On this device' })).toHaveCount(free);
  await expect(page.getByText(new RegExp(`^Downloaded · ${free} free chapters? · \\d+ KB$`))).toBeVisible();

  // A member without the plan: the same.
  const sample = newAccount('sample');
  await signUpByApi(request, sample);
  await signIn(page, sample.email, sample.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/read/${chapters.book}/${chapters.locked}`);
  await downloadReady(page);
  await expect(page.getByRole('button', { name: /Download/ })).toHaveCount(0);
  await page.goto(`/book-detail/${chapters.book}`);
  await downloadReady(page);
  await expect(page.getByText(new RegExp(`^Downloaded · ${free} free chapters? · \\d+ KB$`))).toBeVisible();

  // A member with the plan: the locked chapter's button, and the whole book's.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  const member = await trialMember(request);
  await signIn(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/read/${chapters.book}/${chapters.locked}`);
  await expect(page.getByRole('button', { name: 'Download for offline' })).toBeVisible();
  await page.goto(`/book-detail/${chapters.book}`);
  await expect(page.getByRole('button', { name: 'Download the book for offline' })).toBeVisible();
  await expect(page.getByText(new RegExp(`^${free} chapters? on this device · \\d+ KB$`))).toBeVisible();
});

test('offline, a downloaded chapter shows the Lost badge and the saved-word star from the device', async ({
  page,
  request,
  context,
}) => {
  const chapters = await demoChapters(request);
  const member = await trialMember(request);
  await signIn(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const reader = `/read/${chapters.book}/${chapters.free}`;
  await page.goto(reader);
  await controlled(page);
  // Online: the first phrase heard to its end and marked Lost (key 3), then downloaded.
  const first = page.locator('[data-phrases] li').first();
  await first.locator('.phrase').click(PLAY_ICON);
  await expect(first.getByRole('group', { name: /^Did you understand/ })).toBeVisible({ timeout: 30_000 });
  await page.locator('body').press('3');
  await expect(first.locator('.mark-badge')).toHaveText('Lost');
  await expect(first.getByRole('button', { name: 'In review' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Download for offline' }).click();
  await expect(page.getByText('Downloaded: this chapter opens offline.')).toBeVisible({ timeout: 60_000 });
  // A word saved after the download.
  const term = (await first.locator('.glossary dt').first().textContent()) ?? '';
  await first.getByRole('button', { name: `Save “${term}”` }).click();
  await expect(first.locator('.glossary > div').first()).toHaveClass(/saved/);

  await context.setOffline(true);
  await page.reload();
  await expect(
    page.getByText('You are offline: pages you visited and your downloads open from this device.'),
  ).toBeVisible();
  await expect(first.locator('.mark-badge')).toHaveText('Lost');
  const entry = first.locator('.glossary > div').first();
  await expect(entry).toHaveClass(/saved/);
  // The star is the icon set's, drawn as a mask: no glyph.
  const star = await entry.locator('dt').evaluate((dt) => {
    const style = getComputedStyle(dt, '::before');
    return { content: style.content, mask: style.maskImage || style.webkitMaskImage };
  });
  expect(star.content).not.toContain('★');
  expect(star.mask).toContain('data:image/svg+xml');
  await context.setOffline(false);

  // They are the member's: sign-out forgets them.
  expect((await stateKeys(page)).filter((key) => /^(marks|words):/.test(key))).toEqual([
    `marks:${member.id}:${chapters.book}:${chapters.free}`,
    `words:${member.id}:${chapters.book}:${chapters.free}`,
  ]);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect
    .poll(async () => (await stateKeys(page)).filter((key) => /^(marks|words):/.test(key)))
    .toEqual([]);
});

test('signing out removes the paid downloads; a second member on the browser cannot play them', async ({
  page,
  request,
  context,
}) => {
  const { chapters, member: first } = await downloadBoth(page, request);
  expect(await cacheNames(page)).toContain(`lingonovel-member-${first.id}-v1`);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect.poll(() => cacheNames(page)).not.toContain(`lingonovel-member-${first.id}-v1`);
  await page.goto('/downloads');
  await expect(page.getByRole('link', { name: new RegExp(`^Chapter ${chapters.free}:`) })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`^Chapter ${chapters.locked}:`) })).toHaveCount(0);

  // A second member without a plan, offline: the locked chapter is neither on the device nor served.
  const second = newAccount('second');
  await signUpByApi(request, second);
  await signIn(page, second.email, second.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/read/${chapters.book}/${chapters.locked}`);
  await expect(page.getByRole('link', { name: 'Try for $0.00' })).toBeVisible();
  await expect(page.locator('[data-phrases] li')).toHaveCount(0);
  await context.setOffline(true);
  await page.goto(`/read/${chapters.book}/${chapters.locked}`);
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  await context.setOffline(false);
});

test('a plan that ends while offline: back online, the paid downloads go and the free chapter stays', async ({
  page,
  request,
  context,
}) => {
  const { chapters, member } = await downloadBoth(page, request);
  await context.setOffline(true);
  await setPlan(request, member.id, 'canceled', {
    type: 'customer.subscription.deleted',
    periodEnd: Math.floor(Date.now() / 1000) - 60,
  });
  await page.goto(`/read/${chapters.book}/${chapters.locked}`);
  await expect(page.locator('[data-phrases] li').first()).toBeVisible();
  await context.setOffline(false);
  await page.goto('/downloads');
  await expect(page.getByRole('link', { name: new RegExp(`^Chapter ${chapters.free}:`) })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`^Chapter ${chapters.locked}:`) })).toHaveCount(0);
  expect(await cacheNames(page)).not.toContain(`lingonovel-member-${member.id}-v1`);
});

test.describe('in a French browser', () => {
  // The browser's only language is the book's own: offline, the English can only come from the member's
  // "I speak" kept by the download.
  test.use({ locale: 'fr-FR' });

  test("a member who speaks English reads a downloaded chapter's English translations offline, in a new tab too", async ({
    page,
    request,
    context,
  }) => {
    const book = 'le-petit-voyage';
    const member = await trialMember(request);
    const login = await request.post('/api/v1/user/login', {
      data: { email: member.email, password: member.password },
    });
    const headers = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const profile = await request.put('/api/v1/user/profile', { headers, data: { speaks: ['en'] } });
    expect(profile.status(), await profile.text()).toBe(200);
    const toc = (await (await request.get(`/api/v1/guest/book/${book}/chapters`)).json()) as {
      data: { chapters: Array<{ chapter_no: number; free: boolean }> };
    };
    const locked = toc.data.chapters.find((c) => !c.free)!.chapter_no;
    const english = async (no: number) => {
      const answer = await request.get(`/api/v1/guest/book/${book}/chapter/${no}?translations=en`, {
        headers,
      });
      const { data } = (await answer.json()) as {
        data: { phrases: Array<{ translations: { en: string } }> };
      };
      return data.phrases[0].translations.en;
    };

    await signIn(page, member.email, member.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await downloadHere(page, `/read/${book}/1`);
    await downloadHere(page, `/read/${book}/${locked}`);
    // The answers the reader asks for, under their full address: a locked chapter's in the member's cache only.
    const kept = (name: string) =>
      page.evaluate(async (n) => (await (await caches.open(n)).keys()).map((r) => r.url), name);
    const free = await kept('lingonovel-free-v1');
    expect(free.filter((url) => url.includes('?translations='))).toEqual([
      expect.stringMatching(new RegExp(`/api/v1/guest/book/${book}/chapter/1\\?translations=en$`)),
    ]);
    expect(await kept(`lingonovel-member-${member.id}-v1`)).toContainEqual(
      expect.stringMatching(new RegExp(`/chapter/${locked}\\?translations=en$`)),
    );

    await page.goto(`/read/${book}/1`);
    await context.setOffline(true);
    const settings = (p: Page) => p.getByRole('dialog', { name: 'Player settings' });
    const readsEnglish = async (p: Page, no: number, pressT: boolean) => {
      await expect(
        p.getByText('You are offline: pages you visited and your downloads open from this device.'),
      ).toBeVisible();
      // The reader's translations are settled (what it asked, docs/practice.md): the switch is final.
      await expect(p.locator('[data-phrases]')).toHaveAttribute('data-translations-asked', 'en');
      await inSettings(p, () =>
        expect(settings(p).getByRole('button', { name: 'Translation', exact: true })).toBeVisible(),
      );
      const translation = p.locator('li#p-1 .translation');
      if (pressT) {
        await expect(translation).toBeHidden();
        await p.locator('body').press('t');
      }
      await expect(translation).toBeVisible();
      await expect(translation).toHaveAttribute('lang', 'en');
      await expect(translation).toHaveText(await english(no));
    };
    // The same tab, reloaded: T shows the English.
    await page.reload();
    await readsEnglish(page, 1, true);
    // A new tab (nothing kept for the visit, the profile out of reach): the "I speak" the download kept;
    // the switch remembered on, so they show at once.
    const other = await context.newPage();
    await other.goto(`/read/${book}/${locked}`);
    await readsEnglish(other, locked, false);
    await other.close();
    await context.setOffline(false);

    // Signing out takes the member's kept "I speak" with their paid downloads.
    const keptSpeaks = () =>
      page.evaluate(
        (id) =>
          new Promise<unknown>((resolve, reject) => {
            const open = indexedDB.open('lingonovel-offline');
            open.onerror = () => reject(new Error('IndexedDB would not open'));
            open.onsuccess = () => {
              const get = open.result.transaction('state').objectStore('state').get(`speaks:${id}`);
              get.onsuccess = () => resolve(get.result ?? null);
              get.onerror = () => reject(new Error('IndexedDB would not read'));
            };
          }),
        member.id,
      );
    expect(await keptSpeaks()).toEqual(['en']);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login/);
    await expect.poll(keptSpeaks).toBeNull();
  });
});

interface MemberApi {
  get<T>(path: string): Promise<T>;
  post(path: string, data: unknown): Promise<void>;
}

/** The member's own API calls, with their token, for checking what reached the server. */
async function memberApi(request: APIRequestContext, account: Account): Promise<MemberApi> {
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  return {
    get: async <T>(path: string) =>
      ((await (await request.get(`/api/v1/${path}`, { headers })).json()) as { data: T }).data,
    post: async (path, data) => {
      const response = await request.post(`/api/v1/${path}`, { headers, data });
      expect(response.status(), await response.text()).toBe(200);
    },
  };
}

/** Saves the first glossary term of the free chapter's first `count` phrases, as review cards. */
async function saveWords(api: MemberApi, chapters: Chapters, count: number): Promise<void> {
  const chapter = await api.get<{ phrases: Array<{ id: number; glossary: Array<{ term: string }> }> }>(
    `guest/book/${chapters.book}/chapter/${chapters.free}`,
  );
  for (const phrase of chapter.phrases.slice(0, count))
    await api.post('user/words', { phrase_id: phrase.id, term: phrase.glossary[0].term });
}

interface Stats {
  phrases_heard: number;
  words_saved: number;
  reviews_done: number;
}

test("a member's offline learning reaches the server once back online, exactly once, with its times", async ({
  page,
  request,
  context,
}) => {
  const { chapters, member } = await downloadBoth(page, request);
  const api = await memberApi(request, member);
  // Two words to review, saved before the book is downloaded again (so the device keeps their cards).
  await saveWords(api, chapters, 2);
  await downloadAgain(page, `/read/${chapters.book}/${chapters.free}`);
  const before = await api.get<Stats>('user/stats');

  await context.setOffline(true);
  const offlineFrom = Date.now();
  await page.goto(`/read/${chapters.book}/${chapters.free}`);
  // Three phrases on, a phrase heard to its end, a word saved.
  await page.locator('[data-phrases] li').first().locator('.phrase').click(PLAY_ICON);
  for (let i = 0; i < 2; i++) await page.getByRole('button', { name: 'Next phrase' }).click();
  await expect(page.locator('[data-phrases] li').nth(2)).toHaveClass(/current/);
  const save = page.locator('[data-phrases] li').nth(2).getByRole('button', { name: /^Save/ }).first();
  await save.click();
  await expect(page.getByText(/will be saved to your words when you are back online/)).toBeAttached();
  await page.locator('[data-phrases] li').nth(2).locator('.phrase').click(PLAY_ICON);
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            (document.querySelector('reader-app') as unknown as { player: { element: HTMLAudioElement } })
              .player.element.ended,
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
  // The phrase's listening report reaches the device's queue before the page is left.
  await expect
    .poll(async () => (await queuedActions(page)).some((action) => action.kind === 'listening'))
    .toBe(true);

  // Two review answers, from the cards kept with the download.
  await page.goto('/review');
  await expect(page.getByText(/These cards were kept on this device on/)).toBeVisible();
  for (let i = 0; i < 2; i++) {
    await page.getByRole('button', { name: /Show answer/ }).click();
    await page.getByRole('button', { name: /^Good/ }).click();
  }
  await expect(page.getByText(/actions? wait on this device/)).toBeVisible();
  const offlineUntil = Date.now();

  await context.setOffline(false);
  await page.goto('/dashboard');
  await expect
    .poll(async () => (await api.get<Stats>('user/stats')).reviews_done, { timeout: 30_000 })
    .toBe(before.reviews_done + 2);
  await page.reload();
  await page.waitForTimeout(2000);
  const after = await api.get<Stats>('user/stats');
  expect(after.reviews_done).toBe(before.reviews_done + 2);
  expect(after.words_saved).toBe(before.words_saved + 1);
  expect(after.phrases_heard).toBeGreaterThan(before.phrases_heard);
  const place = await api.get<{ chapter_no: number; position: number; updated_at: string }>(
    `user/progress/${chapters.book}`,
  );
  expect(place).toMatchObject({ chapter_no: chapters.free, position: 3 });
  const savedAt = Date.parse(place.updated_at);
  expect(savedAt).toBeGreaterThanOrEqual(offlineFrom - 1000);
  expect(savedAt).toBeLessThanOrEqual(offlineUntil + 1000);
  const words = await api.get<Array<{ term: string; reps: number }>>(`user/words?book_code=${chapters.book}`);
  expect(words.filter((w) => w.reps === 1)).toHaveLength(2);
  // Another load, another turn of the queue: nothing goes twice.
  await page.reload();
  await page.waitForTimeout(2000);
  expect(await api.get<Stats>('user/stats')).toEqual(after);
});

test('a place reached offline reaches the server once back online, though the page was left at once', async ({
  page,
  request,
  context,
}) => {
  const chapters = await demoChapters(request);
  const member = await trialMember(request);
  const api = await memberApi(request, member);
  // The page's clock is stopped before the taps (below): the save a moment after the last move cannot
  // happen, however slow the machine, so the place must reach the device's queue at the move.
  await page.clock.install();
  await signIn(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await downloadHere(page, `/read/${chapters.book}/${chapters.free}`);

  await context.setOffline(true);
  await page.reload();
  await expect(
    page.getByText('You are offline: pages you visited and your downloads open from this device.'),
  ).toBeVisible();
  await stopClock(page);
  // Two taps on Next phrase, and the learner leaves as soon as the place is on the device.
  const next = page.getByRole('button', { name: 'Next phrase' });
  await next.click();
  await next.click();
  await expect(page.locator('[data-phrases] li').nth(1)).toHaveAttribute('aria-current', 'true');
  const places = async () =>
    (await queuedActions(page))
      .filter((action) => action.kind === 'progress')
      .map((action) => [action.member, action.body.book_code, action.body.position]);
  await expect.poll(places).toEqual([[member.id, chapters.book, 2]]);
  await page.goto('about:blank');
  await page.clock.resume();

  // Back online, the next page sends what waits on the device.
  await context.setOffline(false);
  await page.goto('/downloads');
  const position = async () =>
    (await api.get<{ position: number } | undefined>(`user/progress/${chapters.book}`))?.position;
  await expect.poll(position, { timeout: 30_000 }).toBe(2);
});

test('the device keeps one place per member and book, the newest, whatever order they came in', async ({
  page,
  request,
  context,
}) => {
  const chapters = await demoChapters(request);
  const member = await trialMember(request);
  await signIn(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/read/${chapters.book}/${chapters.free}`);
  // Another member's place in the same book (they read on this browser earlier), and this member's own,
  // from a minute ago.
  const place = (who: number, position: number, msFromNow: number) => ({
    member: who,
    kind: 'progress' as const,
    method: 'PUT' as const,
    path: 'user/progress',
    body: {
      book_code: chapters.book,
      chapter_no: chapters.free,
      position,
      at: new Date(Date.now() + msFromNow).toISOString(),
    },
    queuedAt: Date.now(),
  });
  const other = place(member.id + 1000, 4, -60_000);
  await expect.poll(() => seedQueue(page, [other, place(member.id, 4, -60_000)])).toBe(true);
  await context.setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
  const places = async () =>
    (await queuedActions(page)).map((action) => [action.member, action.body.position]);

  // A newer place replaces this member's older one; the other member's stays.
  const next = page.getByRole('button', { name: 'Next phrase' });
  await next.click();
  await expect.poll(places).toEqual([
    [other.member, 4],
    [member.id, 1],
  ]);
  // A place queued with a later time (a clock set back since, say) is not replaced by an older one: the
  // next move only clears the place it outdates.
  expect(await seedQueue(page, [place(member.id, 4, 3_600_000)])).toBe(true);
  await next.click();
  await expect.poll(places).toEqual([
    [other.member, 4],
    [member.id, 4],
  ]);
});

test('an answer made offline to a card answered meanwhile on another device is refused, counted, and loses nothing', async ({
  page,
  request,
  context,
}) => {
  const { chapters, member } = await downloadBoth(page, request);
  const api = await memberApi(request, member);
  await saveWords(api, chapters, 1);
  await downloadAgain(page, `/read/${chapters.book}/${chapters.free}`);

  await context.setOffline(true);
  await page.goto('/review');
  await page.getByRole('button', { name: /Show answer/ }).click();
  await page.getByRole('button', { name: /^Easy/ }).click();
  // Meanwhile, the other device answers the same card, online.
  const [card] = (await api.get<{ cards: Array<{ id: number; version: number }> }>('user/review')).cards;
  await api.post(`user/review/${card.id}`, { rating: 1, version: card.version });
  const otherDevice = (await api.get<Array<{ id: number; reps: number; due_at: string }>>('user/words')).find(
    (w) => w.id === card.id,
  );

  // Back online, the page sends what waited, and says what the server refused.
  await context.setOffline(false);
  await expect(
    page.getByText('1 answer was not applied: its card was answered on another device meanwhile.'),
  ).toBeVisible();
  const now = (await api.get<Array<{ id: number; reps: number; due_at: string }>>('user/words')).find(
    (w) => w.id === card.id,
  );
  expect(now).toEqual(otherDevice);
  expect(now?.reps).toBe(1);
});

/** The built service worker, which the server hands out as /sw.js. */
const SERVICE_WORKER = join(process.cwd(), 'dist', 'web', 'client', 'sw.js');

test('a new service worker deployed while the reader plays waits, and takes over only when asked', async ({
  page,
  request,
}) => {
  const chapters = await demoChapters(request);
  await page.goto(`/read/${chapters.book}/${chapters.free}`);
  await controlled(page);
  const first = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
  await page.getByRole('button', { name: 'Play all' }).click();
  await playing(page).toBe(true);

  // The deploy: the same address now serves another worker (journeys run one at a time; put back after).
  const original = readFileSync(SERVICE_WORKER, 'utf8');
  writeFileSync(SERVICE_WORKER, `${original}\n// the next version\n`);
  try {
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
  } finally {
    writeFileSync(SERVICE_WORKER, original);
  }
  await expect(page.getByRole('button', { name: 'Update ready: reload' })).toBeVisible();
  // Still the old worker, and the chapter plays on.
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(first);
  const before = (await audioState(page)).time;
  await expect.poll(async () => (await audioState(page)).time).toBeGreaterThan(before);
  expect((await audioState(page)).paused).toBe(false);

  // Asked, the new one takes over and the page reloads under it.
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Update ready: reload' }).click();
  await reloaded;
  await controlled(page);
  await expect(page.getByRole('button', { name: 'Update ready: reload' })).toBeHidden();
  const workers = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return { waiting: registration?.waiting ?? null, active: registration?.active?.state };
  });
  expect(workers).toEqual({ waiting: null, active: 'activated' });
});

test('on plain HTTP (not a secure context) the site works as before, without downloads or a service worker', async ({
  request,
}) => {
  const chapters = await demoChapters(request);
  // A name other than localhost over plain HTTP: what a LAN install without TLS looks like to a browser.
  const { baseURL, launchOptions } = test.info().project.use;
  const port = new URL(baseURL ?? '').port;
  const browser = await chromium.launch({
    ...launchOptions,
    args: [...(launchOptions?.args ?? []), '--host-resolver-rules=MAP lingonovel.test 127.0.0.1'],
  });
  try {
    const page = await browser.newPage({ baseURL: `http://lingonovel.test:${port}` });
    await recordAudio(page);
    await page.goto(`/read/${chapters.book}/${chapters.free}`);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    await expect(page.locator('[data-phrases] li').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download for offline' })).toHaveCount(0);
    await page.locator('[data-phrases] li').first().locator('.phrase').click(PLAY_ICON);
    await expect
      .poll(async () => (await audioEvents(page)).filter((e) => e.type === 'playing').length)
      .toBeGreaterThan(0);
    expect(await page.evaluate(() => 'serviceWorker' in navigator)).toBe(false);
    await page.goto('/downloads');
    await expect(page.getByText('downloads need a secure connection (HTTPS)')).toBeVisible();
  } finally {
    await browser.close();
  }
});
