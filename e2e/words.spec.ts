import AxeBuilder from '@axe-core/playwright';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { newAccount, signIn, signUpByApi, type Account } from './helpers/accounts';

const BOOK = 'der-leuchtturmwarter';

/** The reader's audio element, as the page's player holds it. */
const readerAudio = (page: Page) =>
  page.evaluate(() => {
    const reader = document.querySelector('reader-app') as HTMLElement & {
      player: { element: HTMLAudioElement };
    };
    const audio = reader.player.element;
    return { ended: audio.ended, paused: audio.paused, time: audio.currentTime };
  });

/** Taps a phrase, lets its clip play to its end, and saves one of its glossary terms. */
async function hearAndSave(page: Page, position: number, term: string) {
  const phrase = page.locator(`li#p-${position}`);
  await phrase.locator('.phrase').click();
  await expect(phrase).toHaveClass(/current/);
  await expect.poll(async () => (await readerAudio(page)).ended, { timeout: 20_000 }).toBe(true);
  const save = phrase.getByRole('button', { name: `Save “${term}”` });
  await save.click();
  await expect(save).toHaveAttribute('aria-pressed', 'true');
  await expect(save).toHaveText('Saved');
}

async function memberWithTwoWords(page: Page, request: Parameters<typeof signUpByApi>[0]): Promise<Account> {
  const account = newAccount('words');
  await signUpByApi(request, account);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/read/${BOOK}/1`);
  await hearAndSave(page, 1, 'Fähre');
  await hearAndSave(page, 2, 'Umschlag');
  return account;
}

/** The review page's audio element: playing, past its start. */
const reviewPlaying = (page: Page) =>
  expect.poll(() =>
    page.evaluate(() => {
      const audio = document.querySelector<HTMLAudioElement>('audio[data-review-audio]');
      return !!audio && !audio.paused && audio.currentTime > 0;
    }),
  );

test('a member saves two words in the reader; the marks come back on a reload', async ({ page, request }) => {
  test.setTimeout(90_000);
  await memberWithTwoWords(page, request);
  await page.reload();
  // Saved entries are marked on every phrase; the toggles show on the current one.
  await expect(page.locator('li#p-1 .glossary .saved dt')).toHaveText(['Fähre']);
  await expect(page.locator('li#p-2 .glossary .saved dt')).toHaveText(['Umschlag']);
  await page.locator('li#p-1 .phrase').click();
  const saved = page.locator('li#p-1').getByRole('button', { name: 'Save “Fähre”' });
  await expect(saved).toHaveAttribute('aria-pressed', 'true');
  // Toggled off, and back on.
  await saved.click();
  await expect(saved).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator('li#p-1 .glossary .saved')).toHaveCount(0);
  await saved.click();
  await expect(saved).toHaveAttribute('aria-pressed', 'true');
});

test('a visitor who presses Save is asked to sign in', async ({ page }) => {
  await page.goto(`/read/${BOOK}/1`);
  await page.locator('li#p-1 .phrase').click();
  await page.locator('li#p-1').getByRole('button', { name: 'Save “Fähre”' }).click();
  await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(`/read/${BOOK}/1`)}`));
});

test('review by keyboard alone, hearing the clip; the dashboard counts it all', async ({ page, request }) => {
  test.setTimeout(120_000);
  await memberWithTwoWords(page, request);
  await page.goto('/review');
  await expect(page.getByText('2 cards left')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 })).toHaveText('Fähre');
  await page.keyboard.press('Space');
  await reviewPlaying(page).toBe(true);
  await expect(page.getByText('ferry', { exact: true })).toBeVisible();
  await expect(page.locator('.review-phrase mark')).toHaveText('Fähre');
  await expect(page.getByRole('button', { name: /^Good/ })).toContainText('min');
  await page.keyboard.press('3');

  await expect(page.getByText('1 card left')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 })).toHaveText('Umschlag');
  await page.keyboard.press('p');
  await reviewPlaying(page).toBe(true);
  await page.keyboard.press('Space');
  await expect(page.getByText('envelope', { exact: true })).toBeVisible();
  await page.keyboard.press('1');
  // Again brings the card back within minutes; until then the queue is empty. Undo takes the answer back.
  await expect(page.getByText(/All done for now\. The next card is due/)).toBeVisible();
  await page.keyboard.press('u');
  await expect(page.getByRole('heading', { level: 2 })).toHaveText('Umschlag');
  await expect(page.getByText('envelope', { exact: true })).toBeHidden();
  await page.keyboard.press('Space');
  await page.keyboard.press('4');
  await expect(page.getByText(/All done for now\. The next card is due/)).toBeVisible();

  await page.goto('/dashboard');
  const stat = (name: string) => page.locator(`[data-stat="${name}"]`);
  await expect(stat('words')).toHaveText('2');
  await expect(stat('reviews')).toHaveText('2');
  // Both phrases were heard to their end; leaving the reader sent the report.
  await expect(stat('phrases')).toHaveText('2');
  await expect(stat('streak')).toHaveText('1 day');
  await expect(page.getByRole('img', { name: /Listening over the last 30 days/ })).toBeVisible();
});

test('the words page lists, filters, plays, deletes and exports the CSV', async ({ page, request }) => {
  test.setTimeout(90_000);
  await memberWithTwoWords(page, request);
  await page.goto('/words');
  await expect(page.getByText('2 words')).toBeVisible();
  await page.getByLabel('Search').fill('envel');
  await expect(page.getByText('1 word', { exact: true })).toBeVisible();
  await expect(page.locator('.word-list strong')).toHaveText(['Umschlag']);
  await page.getByLabel('Search').fill('');
  await expect(page.getByLabel('Book')).toContainText('Der Leuchtturmwärter (2)');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('lingonovel-words.csv');
  const csv = await readFile(await file.path(), 'utf8');
  expect(csv.startsWith('\uFEFFterm,meaning,phrase,book,chapter,audio URL\r\n')).toBe(true);
  expect(csv).toContain('Fähre,ferry,Die Fähre brachte nur zweimal in der Woche Post auf die Insel.');
  expect(csv).toContain('Umschlag,envelope,');
  expect(csv.trim().split('\r\n')).toHaveLength(3);

  const anki = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export for Anki' }).click();
  expect((await anki).suggestedFilename()).toBe('lingonovel-words-anki.zip');

  await page.getByRole('button', { name: 'Play the phrase of “Fähre”' }).click();
  await expect
    .poll(() => page.evaluate(() => !document.querySelector<HTMLAudioElement>('.words audio')!.paused))
    .toBe(true);
  await page.getByRole('button', { name: 'Delete “Fähre”' }).click();
  await expect(page.getByText('“Fähre” has been removed.')).toBeVisible();
  await expect(page.getByText('1 word', { exact: true })).toBeVisible();
});

test('axe finds no violations on /review and /words', async ({ page, request }) => {
  test.setTimeout(90_000);
  await memberWithTwoWords(page, request);
  await page.goto('/words');
  await expect(page.getByText('2 words')).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.goto('/review');
  await expect(page.getByText('2 cards left')).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.keyboard.press('Space');
  await expect(page.getByRole('group', { name: 'How well did you know it?' })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});
