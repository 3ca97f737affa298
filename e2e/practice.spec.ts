import AxeBuilder from '@axe-core/playwright';
import { gzipSync } from 'node:zlib';
import type { APIRequestContext, BrowserContextOptions, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { useSession, type Session } from './helpers/admin';
import { newAccount, signUpByApi } from './helpers/accounts';
import { expect, test } from './helpers/fixtures';
import { inSettings, PLAY_ICON, playing } from './helpers/reader';
import { LAPTOP, SCREENS } from './helpers/screens';

// The reader's practice modes (docs/practice.md, "The reader"), on a phone and on a laptop: translations,
// dictation, one's own voice in shadowing (Chromium's fake microphone), a refused microphone, and a phrase
// marked Lost reviewed as a phrase card. axe audits each mode.

const BOOK = 'le-petit-voyage';
const CHAPTER = `/read/${BOOK}/1`;

/** A fresh member, signed in on the page before any of its scripts run. */
async function member(page: Page, request: APIRequestContext, label: string): Promise<Session> {
  const account = newAccount(label);
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  expect(login.status()).toBe(200);
  const session = (await login.json()) as Session;
  await useSession(page, session);
  return session;
}

const settingsSheet = (page: Page) => page.getByRole('dialog', { name: 'Player settings' });
const mode = (page: Page, name: 'Read' | 'Dictation') =>
  settingsSheet(page).getByRole('radio', { name, exact: true }).check();

const audit = async (page: Page) => expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

/** The reader's clip has played to its end. */
const clipEnded = (page: Page) =>
  expect.poll(
    () =>
      page.evaluate(() => {
        const reader = document.querySelector('reader-app') as HTMLElement & {
          player: { element: HTMLAudioElement };
        };
        return reader.player.element.ended;
      }),
    { timeout: 20_000 },
  );

const phraseText = (page: Page, position: number) =>
  page.locator(`li#p-${position} .phrase`).evaluate((button) => button.textContent ?? '');

for (const [screen, use] of SCREENS) {
  test.describe(`on a ${screen}`, () => {
    test.use(use);

    test('a visitor reveals one translation, then shows them all with T', async ({ page }) => {
      await page.goto(CHAPTER);
      const first = page.locator('li#p-1');
      await first.locator('.phrase').click(PLAY_ICON);
      const show = first.getByRole('button', { name: 'Show translation' });
      await expect(show).toBeVisible();
      // Hidden by default, under every phrase.
      await expect(page.locator('li#p-2 .translation')).toBeHidden();
      await show.click();
      const translation = first.locator('.translation');
      await expect(translation).toBeVisible();
      await expect(translation).toHaveAttribute('lang', /^en/);
      await expect(first.getByRole('button', { name: 'Hide translation' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      await expect(page.locator('li#p-2 .translation')).toBeHidden();
      await inSettings(page, () =>
        settingsSheet(page).getByRole('button', { name: 'Translation', exact: true }).click(),
      );
      await expect(page.locator('li#p-4 .translation')).toBeVisible();
      await audit(page);
      // Remembered on this browser; T turns them off again.
      await page.reload();
      await expect(page.locator('li#p-4 .translation')).toBeVisible();
      await page.locator('body').press('t');
      await expect(page.locator('li#p-4 .translation')).toBeHidden();
      await expect(page.locator('[data-live]')).toHaveText('Translations hidden.');
    });

    test('a member dictates two phrases with one mistake and sees it marked', async ({ page, request }) => {
      test.setTimeout(90_000);
      await member(page, request, 'dictation');
      await page.goto(CHAPTER);
      await inSettings(page, () => mode(page, 'Dictation'));
      const field = page.getByLabel('Type what you hear');
      await expect(field).toBeVisible();
      // The text is hidden (not merely transparent), and so is its glossary, until the phrase is checked.
      await expect(page.locator('li#p-1 .phrase-text')).toHaveCSS('visibility', 'hidden');
      await expect(page.getByRole('button', { name: 'Play phrase 3 (text hidden)' })).toBeVisible();
      await page.getByRole('button', { name: 'Replay', exact: true }).click();
      await playing(page).toBe(true);

      // Phrase 1, right, its "à" typed from the accent bar.
      const one = await phraseText(page, 1);
      const [before, after] = one.split('à');
      await field.fill(before);
      await page.getByRole('button', { name: 'Type à' }).click();
      await field.press('End');
      await field.pressSequentially(after);
      await expect(field).toHaveValue(one);
      await field.press('Enter');
      await expect(page.locator('li#p-1 .dictation-score')).toHaveText('Score: 100%');
      await expect(page.locator('li#p-1 .phrase-text')).toHaveCSS('visibility', 'visible');

      // Enter again goes on to phrase 2, its clip playing and the field ready.
      await field.press('Enter');
      await expect(page.locator('li#p-2')).toHaveAttribute('aria-current', 'true');
      // Its text, hidden, is not read out either.
      await expect(page.locator('[data-live]')).toHaveText('Phrase 2 of 4');
      await expect(field).toBeFocused();
      await expect(field).toHaveValue('');
      // Tab replays; a second Tab leaves the field.
      await field.press('Tab');
      await playing(page).toBe(true);
      await expect(field).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(field).not.toBeFocused();

      const two = await phraseText(page, 2);
      const longest = two.split(/\s+/).reduce((a, b) => (b.length > a.length ? b : a));
      const misspelt = longest.slice(0, 1) + 'x' + longest.slice(2);
      await field.fill(two.replace(longest, misspelt));
      await field.press('Enter');
      const outcome = page.locator('li#p-2 .dictation-outcome');
      await expect(outcome.locator('.w-misspelt')).toHaveCount(1);
      await expect(outcome.locator('.w-misspelt')).toContainText(
        `misspelt: you typed “${misspelt.replace(/[.,!?;:]/g, '')}”`,
      );
      await expect(outcome.locator('.w-misspelt mark')).toHaveCount(1);
      await expect(outcome.locator('.dictation-score')).not.toHaveText('Score: 100%');
      await expect(page.locator('[data-live]')).toContainText('1 misspelt');
      // The chapter's total, from the server.
      await expect(page.locator('.dictation-summary')).toContainText('over 2 of 4 phrases');
      await audit(page);
      await page.reload();
      await inSettings(page, () => mode(page, 'Dictation'));
      await expect(page.locator('li#p-1 .dictation-badge')).toHaveText('Dictation 100%');
    });

    test('a member marks a phrase Lost and reviews it as a phrase card', async ({ page, request }) => {
      test.setTimeout(90_000);
      await member(page, request, 'marks');
      await page.goto(CHAPTER);
      await inSettings(page, () => page.getByLabel('Speed').selectOption('1.5'));
      const first = page.locator('li#p-1');
      await first.locator('.phrase').click(PLAY_ICON);
      await clipEnded(page).toBe(true);
      const marks = first.getByRole('group', { name: 'Did you understand phrase 1?' });
      await expect(marks).toBeVisible();
      const [put] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/v1/user/marks') && r.request().method() === 'PUT'),
        page.locator('body').press('3'),
      ]);
      expect(put.status()).toBe(200);
      await expect(marks.getByRole('button', { name: 'Lost' })).toHaveAttribute('aria-pressed', 'true');
      // The toggle says the phrase is in the review (the mark put it there), not that the learner saved it.
      await expect(marks.getByRole('button', { name: 'Add to review' })).toHaveCount(0);
      await expect(marks.getByRole('button', { name: 'In review' })).toHaveAttribute('aria-pressed', 'true');
      await expect(first.locator('.mark-badge')).toHaveText('Lost');
      await expect(page.locator('[data-live]')).toHaveText(
        'Phrase 1 marked Lost. The phrase joins your review.',
      );
      await audit(page);
      // Another phrase tapped: while it plays the keys mark nothing; once it has ended, they mark it.
      const puts: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/v1/user/marks') && r.method() === 'PUT') puts.push(r.postData() ?? '');
      });
      await page.locator('li#p-2 .phrase').click(PLAY_ICON);
      await expect(first.locator('.phrase-marks')).toBeHidden();
      await playing(page).toBe(true);
      await page.locator('body').press('1');
      await clipEnded(page).toBe(true);
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/v1/user/marks') && r.request().method() === 'PUT'),
        page.locator('body').press('2'),
      ]);
      await expect(page.locator('[data-live]')).toHaveText(/^Phrase 2 marked Not sure\./);
      expect(puts).toHaveLength(1);
      expect(JSON.parse(puts[0])).toMatchObject({ mark: 'unsure' });
      await expect(first.locator('.mark-badge')).toHaveText('Lost');
      // The mark comes back with the page.
      await page.reload();
      await expect(page.locator('li#p-1 .mark-badge')).toHaveText('Lost');

      const text = await phraseText(page, 1);
      await page.goto('/review');
      await expect(page.getByRole('heading', { name: 'Phrase card' })).toBeVisible();
      await expect(page.getByText(text)).toHaveCount(0);
      await page.getByRole('button', { name: 'Show answer' }).click();
      await expect(page.locator('.review-phrase-text')).toHaveText(text);
    });

    test('a visitor dictates in the browser, and is told the score is not kept', async ({ page }) => {
      await page.goto(CHAPTER);
      await inSettings(page, () => mode(page, 'Dictation'));
      await page.getByLabel('Type what you hear').fill('il est huit heures du matin a la gare');
      await page.getByRole('button', { name: 'Check' }).click();
      const outcome = page.locator('li#p-1 .dictation-outcome');
      await expect(outcome.locator('.dictation-score')).toContainText('(not kept)');
      await expect(outcome.locator('.w-accent')).toContainText('accent: you typed “a”');
      await expect(outcome.locator('.w-missing')).toContainText('Montparnasse');
      await expect(page.locator('.dictation-summary')).toContainText('Your scores are not kept');
      // Back to reading: the text shows, the outcome goes.
      await inSettings(page, () => mode(page, 'Read'));
      await expect(outcome).toBeHidden();
      await expect(page.locator('li#p-2 .phrase-text')).toHaveCSS('visibility', 'visible');
    });
  });
}

test.describe('in a French browser', () => {
  test.use({ locale: 'fr-FR' });

  test("a member's languages come before the browser's, and the book's own is never asked", async ({
    page,
    request,
  }) => {
    const session = await member(page, request, 'speaks');
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('?translations=')) asked.push(new URL(r.url()).searchParams.get('translations')!);
    });
    // No "I speak" yet: the browser's French is the book's language, so nothing is asked (once the
    // translations are settled: the list says what it asked).
    const settled = (languages: string) =>
      expect(page.locator('[data-phrases]')).toHaveAttribute('data-translations-asked', languages);
    await page.goto(CHAPTER);
    await settled('');
    expect(asked).toEqual([]);
    await page.locator('li#p-1 .phrase').click(PLAY_ICON);
    await expect(page.locator('li#p-1 .show-translation')).toHaveCount(0);
    const speak = async (speaks: string[], settledOn: string) => {
      const profile = await request.put('/api/v1/user/profile', {
        headers: { Authorization: `Bearer ${session.token}` },
        data: { speaks },
      });
      expect(profile.status(), await profile.text()).toBe(200);
      // The profile is kept for the visit: a new visit asks again.
      await page.evaluate(() => sessionStorage.clear());
      await page.reload();
      await settled(settledOn);
      await page.locator('li#p-1 .phrase').click(PLAY_ICON);
      await page.locator('li#p-1').getByRole('button', { name: 'Show translation' }).click();
    };
    await speak(['en'], 'en');
    expect(asked).toEqual(['en']);
    await expect(page.locator('li#p-1 .translation')).toHaveAttribute('lang', 'en');
    // The first of the member's languages the phrase has: no Brazilian Portuguese here, German before English.
    // Only the languages the chapter has (English and German), sorted: the page cache's own key.
    await speak(['pt-BR', 'de', 'en'], 'de,en');
    expect(asked.at(-1)).toBe('de,en');
    await expect(page.locator('li#p-1 .translation')).toHaveAttribute('lang', 'de');
  });
});

/**
 * A browser of its own with Chromium's fake microphone, launched as the configuration launches every other
 * plus the microphone's flags: they are launch flags, and a `launchOptions` in test.use would apply to
 * every journey of the file.
 */
async function fakeMicrophone(
  playwright: PlaywrightWorkerArgs['playwright'],
  options: BrowserContextOptions,
) {
  const launch = test.info().project.use.launchOptions ?? {};
  const browser = await playwright.chromium.launch({
    ...launch,
    args: [...(launch.args ?? []), '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  });
  const context = await browser.newContext({ ...options, serviceWorkers: 'block' });
  return { browser, context };
}

/** How many of a canvas's pixels are painted. */
const painted = (page: Page, label: string) =>
  page.getByRole('img', { name: label }).evaluate(
    (canvas: HTMLCanvasElement) =>
      canvas
        .getContext('2d')!
        .getImageData(0, 0, canvas.width, canvas.height)
        .data.filter((value, i) => i % 4 === 3 && value > 0).length,
  );

for (const [screen, use] of SCREENS) {
  test(`on a ${screen}, shadowing records a take and plays it after the narrator`, async ({
    playwright,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const { browser, context } = await fakeMicrophone(playwright, { ...use, baseURL });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(CHAPTER);
      await inSettings(page, () =>
        settingsSheet(page).getByRole('radio', { name: 'Pause ×1', exact: true }).check(),
      );
      const first = page.locator('li#p-1');
      await expect(
        first.getByText('Your recordings stay in this browser: they are never uploaded.'),
      ).toBeVisible();
      await first.getByRole('button', { name: 'Record my voice' }).click();
      const panel = first.locator('.voice');
      await expect(panel).toHaveAttribute('data-state', 'recording', { timeout: 20_000 });
      // Some of the fake microphone's tone is in before Stop.
      await expect(panel).toHaveAttribute('data-chunks', /^[1-9]/);
      await first.getByRole('button', { name: 'Stop recording' }).click();
      await expect(panel).toHaveAttribute('data-plays', '1', { timeout: 30_000 });
      expect(await painted(page, "The narrator's waveform")).toBeGreaterThan(0);
      expect(await painted(page, 'Your waveform')).toBeGreaterThan(0);
      const download = first.getByRole('link', { name: 'Download my take' });
      await expect(download).toHaveAttribute('href', /^blob:/);
      await expect(download).toHaveAttribute('download', /phrase-1\.(webm|ogg|m4a)$/);
      // Played again on demand, through Web Audio.
      await first.getByRole('button', { name: 'Play both' }).click();
      await expect(panel).toHaveAttribute('data-plays', '2', { timeout: 30_000 });
      await audit(page);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
}

test('a refused microphone says so, and shadowing goes on', async ({ page }) => {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () =>
      Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  });
  await page.goto(CHAPTER);
  await inSettings(page, () =>
    settingsSheet(page).getByRole('radio', { name: 'Pause ×1', exact: true }).check(),
  );
  const first = page.locator('li#p-1');
  await first.getByRole('button', { name: 'Record my voice' }).click();
  await expect(first.locator('.voice-status')).toHaveText(/The microphone is off for this site/);
  await expect(page.locator('[data-live]')).toHaveText(/The microphone is off for this site/);
  // The rest of shadowing still works: a phrase plays, and the pause follows it: its clip has ended, the
  // reader still counts as sounding (Play all pressed) for the pause, then stops on its own.
  await expect(page.getByRole('button', { name: /^Player settings, .*shadowing pause ×1/ })).toBeVisible();
  await page.locator('li#p-2 .phrase').click(PLAY_ICON);
  await playing(page).toBe(true);
  await clipEnded(page).toBe(true);
  const play = page.getByRole('button', { name: 'Play all' });
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  await expect(play).toHaveAttribute('aria-pressed', 'false', { timeout: 20_000 });
  await expect(page.locator('li#p-3')).not.toHaveAttribute('aria-current', 'true');
});

test('a visitor pressing 1, 2 or 3 is told to sign in and stays; the button takes them there', async ({
  page,
}) => {
  await page.goto(CHAPTER);
  await inSettings(page, () => page.getByLabel('Speed').selectOption('1.5'));
  const first = page.locator('li#p-1');
  await first.locator('.phrase').click(PLAY_ICON);
  await clipEnded(page).toBe(true);
  const marks = first.getByRole('group', { name: 'Did you understand phrase 1?' });
  await expect(marks).toBeVisible();
  await page.locator('body').press('3');
  await expect(page.locator('[data-live]')).toHaveText('Sign in to mark phrases.');
  expect(new URL(page.url()).pathname).toBe(CHAPTER);
  await marks.getByRole('button', { name: 'Lost' }).click();
  await expect(page).toHaveURL(/\/login\?next=/);
});

test('a take is one at a time, and leaving shadowing mid-take frees the microphone', async ({
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const { browser, context } = await fakeMicrophone(playwright, { ...LAPTOP, baseURL });
  // Every stream the page is given, and each request for one: the browser's prompt takes its time. The
  // first waits until the test grants it (`__grant`), so that the page is still asking when the test taps.
  await context.addInitScript(() => {
    const streams: MediaStream[] = [];
    const ask = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    let held: Array<() => void> | null = [];
    const grant = () => {
      held?.forEach((resolve) => resolve());
      held = null;
    };
    Object.assign(window, { __streams: streams, __grant: grant });
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      if (held) await new Promise<void>((resolve) => held!.push(resolve));
      else await new Promise((resolve) => setTimeout(resolve, 600));
      const stream = await ask(constraints);
      streams.push(stream);
      return stream;
    };
  });
  const page = await context.newPage();
  const tracks = () =>
    page.evaluate(() =>
      (window as unknown as { __streams: MediaStream[] }).__streams.flatMap((stream) =>
        stream.getTracks().map((track) => track.readyState),
      ),
    );
  try {
    await page.goto(CHAPTER);
    await inSettings(page, () =>
      settingsSheet(page).getByRole('radio', { name: 'Pause ×1', exact: true }).check(),
    );
    const first = page.locator('li#p-1');
    const panel = first.locator('.voice');
    // A second tap while the browser asks cancels the take: it never starts a second one.
    await first.getByRole('button', { name: 'Record my voice' }).click();
    await expect(panel).toHaveAttribute('data-state', 'asking');
    await first.getByRole('button', { name: 'Cancel' }).click();
    await page.evaluate(() => (window as unknown as { __grant: () => void }).__grant());
    await expect(first.locator('.voice-status')).toHaveText('Cancelled.');
    await expect(first.getByRole('button', { name: 'Record my voice' })).toBeVisible();
    await expect.poll(tracks).toEqual(['ended']);

    // Dictation chosen while recording: the recorder and the microphone stop.
    await first.getByRole('button', { name: 'Record my voice' }).click();
    await expect(panel).toHaveAttribute('data-state', 'recording', { timeout: 20_000 });
    await inSettings(page, () => mode(page, 'Dictation'));
    await expect(panel).toHaveCount(0);
    await expect.poll(tracks).toEqual(['ended', 'ended']);
    await expect(page.getByLabel('Type what you hear')).toBeVisible();
    // Back in shadowing, the phrase has no take: the cancelled one was never kept.
    await inSettings(page, () => mode(page, 'Read'));
    await expect(first.getByRole('button', { name: 'Record my voice' })).toBeVisible();
    await expect(first.getByRole('link', { name: 'Download my take' })).toBeHidden();
  } finally {
    await browser.close();
  }
});

test("the reader's JavaScript, every mode loaded, stays under 80 KB gzipped, without React", async ({
  page,
}) => {
  const scripts = new Map<string, Promise<Buffer>>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.set(new URL(response.url()).pathname, response.body());
  });
  await page.goto(CHAPTER);
  // The translations and the marks are in: the translations have said what they asked.
  await expect(page.locator('[data-phrases]')).toHaveAttribute('data-translations-asked', /.*/);
  await inSettings(page, async () => {
    await mode(page, 'Dictation');
    await mode(page, 'Read');
    await settingsSheet(page).getByRole('radio', { name: 'Pause ×1', exact: true }).check();
  });
  await page.getByLabel('Type what you hear').waitFor({ state: 'detached' });
  await page.locator('li#p-1').getByRole('button', { name: 'Record my voice' }).waitFor();
  // A visitor's dictation loads the comparison too.
  await inSettings(page, () => mode(page, 'Dictation'));
  await page.getByLabel('Type what you hear').fill('il est');
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page.locator('li#p-1 .dictation-score')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const inline = await page.$$eval('script:not([src]):not([type="application/ld+json"])', (nodes) =>
    nodes.map((n) => n.textContent ?? '').join(''),
  );
  let total = gzipSync(inline, { level: 9 }).length;
  for (const body of scripts.values()) total += gzipSync(await body, { level: 9 }).length;
  expect([...scripts.keys()].filter((path) => /react|client\.[\w-]+\.js$/i.test(path))).toEqual([]);
  expect(total).toBeLessThanOrEqual(80 * 1024);
  console.log(`reader page JavaScript: ${(total / 1024).toFixed(1)} KB gzipped, ${scripts.size} scripts`);
});
