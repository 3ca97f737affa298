import AxeBuilder from '@axe-core/playwright';
import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { newAccount, signIn, signUpByApi, type Account } from './helpers/accounts';
import { SCREENS } from './helpers/screens';
import { PLAY_ICON } from './helpers/reader';

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
  await phrase.locator('.phrase').click(PLAY_ICON);
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
  await page.locator('li#p-1 .phrase').click(PLAY_ICON);
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
  await page.locator('li#p-1 .phrase').click(PLAY_ICON);
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
  // The chart: its axes say what they count, and a day's value shows on focus and on hover.
  const chart = page.getByRole('list', {
    name: /^Minutes listened each day, the last 30 days: .* in all, 2 reviews\.$/,
  });
  await expect(chart).toBeVisible();
  await expect(page.locator('.chart-y')).toContainText('Minutes');
  await expect(page.locator('.chart-x')).toContainText('Days');
  await expect(page.locator('.chart-x')).toContainText('Today');
  const today = chart.getByRole('listitem').last();
  await expect(today).toHaveAttribute('tabindex', '0');
  await today.focus();
  const tip = page.locator('.chart-tip');
  await expect(tip).toHaveText(/^\w+, \w+ \d+: [\d.]+ minutes?, 2 reviews$/);
  await page.keyboard.press('ArrowLeft');
  await expect(chart.getByRole('listitem').nth(28)).toBeFocused();
  await expect(tip).toHaveText(/: 0 minutes, 0 reviews$/);
  await page.keyboard.press('Tab');
  await chart.getByRole('listitem').last().hover();
  await expect(tip).toHaveText(/2 reviews$/);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
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
  expect(
    csv.startsWith(
      '\uFEFFterm,meaning,phrase,book,chapter,audio URL,audio URL expires,kind,translation,source,dictionary\r\n',
    ),
  ).toBe(true);
  expect(csv).toContain('Fähre,ferry,Die Fähre brachte nur zweimal in der Woche Post auf die Insel.');
  // Chapter 1 is free: its clips' links never expire, and the file says so.
  expect(csv).toMatch(/Fähre,ferry,.*\.mp3,never,word,/);
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
  await expect(page.getByText('“Fähre” deleted.')).toBeVisible();
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

/** A member with words saved through the API (quicker than hearing the clips), signed in on the page. */
async function memberWithWords(page: Page, request: APIRequestContext, terms: Array<[number, string]>) {
  const account = newAccount('undo');
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  const token = ((await login.json()) as { token: string }).token;
  const auth = { Authorization: `Bearer ${token}` };
  const chapter = (await (await request.get(`/api/v1/guest/book/${BOOK}/chapter/1`)).json()) as {
    data: { phrases: Array<{ id: number; position: number }> };
  };
  for (const [position, term] of terms) {
    const phrase = chapter.data.phrases.find((p) => p.position === position)!;
    const saved = await request.post('/api/v1/user/words', {
      headers: auth,
      data: { phrase_id: phrase.id, term },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  return {
    account,
    get: async <T>(path: string) =>
      (await (await request.get(`/api/v1/${path}`, { headers: auth })).json()) as T,
  };
}

interface WordRow {
  id: number;
  term: string;
  due_at: string;
  state: number;
  reps: number;
}

for (const [screen, layout] of SCREENS)
  test.describe(`on a ${screen}`, () => {
    test.use(layout);

    test('delete a word, Undo: the same word, its card and its history are back', async ({
      page,
      request,
    }) => {
      test.setTimeout(90_000);
      const member = await memberWithWords(page, request, [
        [1, 'Fähre'],
        [2, 'Umschlag'],
      ]);
      // A card with a history: one answer in a review.
      await page.goto('/review');
      await expect(page.getByRole('heading', { level: 2 })).toHaveText('Fähre');
      await page.keyboard.press('Space');
      await page.keyboard.press('3');
      await expect(page.getByText('1 card left')).toBeVisible();
      const before = (await member.get<{ data: WordRow[] }>('user/words')).data.find(
        (w) => w.term === 'Fähre',
      )!;
      expect(before.reps).toBe(1);

      await page.goto('/words');
      // Due times read as a person says them.
      const fahre = page.getByRole('listitem').filter({ hasText: 'ferry' });
      await expect(fahre).toContainText(/Due in \d+ minutes/);
      await expect(page.getByRole('listitem').filter({ hasText: 'envelope' })).toContainText('Due now');

      // No confirmation: the word goes at once, and Undo is offered (and has the focus).
      await fahre.getByRole('button', { name: 'Delete “Fähre”' }).click();
      await expect(page.getByRole('status').filter({ hasText: '“Fähre” deleted.' })).toBeVisible();
      await expect(page.getByText('1 word', { exact: true })).toBeVisible();
      await expect(page.locator('.word-list strong')).toHaveText(['Umschlag']);
      const undo = page.getByRole('button', { name: 'Undo' });
      await expect(undo).toBeFocused();
      expect((await member.get<{ data: WordRow[] }>('user/words')).data.map((w) => w.term)).toEqual([
        'Umschlag',
      ]);
      expect((await member.get<{ data: { reviews_done: number } }>('user/stats')).data.reviews_done).toBe(0);

      await undo.click();
      await expect(page.getByText('“Fähre” is back.')).toBeVisible();
      await expect(page.getByText('2 words', { exact: true })).toBeVisible();
      await expect(undo).toHaveCount(0);
      const after = (await member.get<{ data: WordRow[] }>('user/words')).data.find(
        (w) => w.term === 'Fähre',
      )!;
      expect(after).toEqual(before);
      expect((await member.get<{ data: { reviews_done: number } }>('user/stats')).data.reviews_done).toBe(1);

      // Its history came back with it: the review's answer can still be taken back.
      await page.goto('/review');
      await expect(page.getByRole('heading', { level: 2 })).toHaveText('Umschlag');
      const undone = await page.evaluate(async () => {
        const res = await fetch('/api/v1/user/review/undo', {
          method: 'POST',
          headers: { Authorization: `Bearer ${localStorage.getItem('token')}` },
        });
        return { status: res.status, body: (await res.json()) as { data: { id: number; reps: number } } };
      });
      expect([undone.status, undone.body.data.id, undone.body.data.reps]).toEqual([200, before.id, 0]);
    });
  });

test('Undo goes after a few seconds, the focus back on the list; the keyboard holds it', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await memberWithWords(page, request, [
    [1, 'Fähre'],
    [2, 'Umschlag'],
  ]);
  await page.goto('/words');
  const undo = page.getByRole('button', { name: 'Undo' });
  await page.getByRole('button', { name: 'Delete “Fähre”' }).click();
  await expect(undo).toBeFocused();
  await expect(undo).toHaveCount(0, { timeout: 12_000 });
  await expect(page.getByText('1 word', { exact: true })).toBeFocused();

  // Pressed from the keyboard, Undo stays while the keyboard is on it, and goes once it moves on.
  await page.getByRole('button', { name: 'Delete “Umschlag”' }).press('Enter');
  await expect(undo).toBeFocused();
  await page.waitForTimeout(9000);
  await expect(undo).toBeVisible();
  await page.keyboard.press('Shift+Tab');
  await expect(undo).toHaveCount(0, { timeout: 12_000 });
  await expect(page.getByText('You have not saved any words yet.', { exact: false })).toBeVisible();
});

test('/words has no axe violations while Undo is offered', async ({ page, request }) => {
  await memberWithWords(page, request, [
    [1, 'Fähre'],
    [2, 'Umschlag'],
  ]);
  await page.goto('/words');
  await page.getByRole('button', { name: 'Delete “Fähre”' }).click();
  await expect(page.getByRole('button', { name: 'Undo' })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});
