import AxeBuilder from '@axe-core/playwright';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './helpers/fixtures';
import { newAccount, signUpByApi } from './helpers/accounts';
import { adminSession, media, uniqueTitle, useSession, type Session } from './helpers/admin';
import { SCREENS } from './helpers/screens';

/**
 * The member pages of the practice issue (docs/practice.md, Pages): "I speak" on the profile, a phrase's
 * translations in the admin form, phrase cards on /words and /review, dictation accuracy on the
 * dashboard and "Most often lost" in the Readers panel. One book of their own, French, whose chapter 1
 * (free) has two phrases, the first translated into English.
 */
test.describe.configure({ mode: 'serial' });

const BOOK_PHRASES = [
  {
    phrase: 'Le bateau arrive deux fois par semaine.',
    dictionary: 'bateau — boat\nsemaine — week',
    translations: { en: 'The boat comes twice a week.' },
  },
  { phrase: 'Il apporte le courrier.', dictionary: 'courrier — mail', translations: {} },
];
const [FIRST, SECOND] = BOOK_PHRASES;

let admin: Session;
const book = { title: uniqueTitle('Practice Pages'), code: '', phraseIds: [] as number[], chapterId: 0 };

test.beforeAll(async ({ request }) => {
  test.setTimeout(60_000);
  admin = await adminSession(request);
  const headers = { Authorization: `Bearer ${admin.token}` };
  const clip = readFileSync(media.clip);
  const created = await request.post('/api/v1/admin/book', {
    headers,
    multipart: {
      title: book.title,
      author: 'Paule Pratique',
      narrated_by: 'Nora Narratrice',
      description: 'A book for the practice journeys.',
      difficulty: 'Easy',
      hours: '0',
      minutes: '5',
      sample_text: 'Bonjour.',
      language: 'fr',
      cefr: 'A1',
      book_image: { name: 'cover.jpg', mimeType: 'image/jpeg', buffer: readFileSync(media.coverJpg) },
      sample_audio: { name: 'clip.mp3', mimeType: 'audio/mpeg', buffer: clip },
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const bookData = ((await created.json()) as { data: { id: number; book_code: string } }).data;
  book.code = bookData.book_code;
  const chapter = await request.post('/api/v1/admin/chapter', {
    headers,
    data: { title: 'Le port', chapter_no: 1, book_id: bookData.id },
  });
  expect(chapter.status(), await chapter.text()).toBe(200);
  book.chapterId = ((await chapter.json()) as { data: { id: number } }).data.id;
  for (const { phrase, dictionary, translations } of BOOK_PHRASES) {
    const added = await request.post('/api/v1/admin/phrase', {
      headers,
      multipart: {
        chapter_id: String(book.chapterId),
        phrase,
        dictionary,
        ...Object.fromEntries(
          Object.entries(translations).map(([tag, text]) => [`translations[${tag}]`, text]),
        ),
        line_audio: { name: 'clip.mp3', mimeType: 'audio/mpeg', buffer: clip },
      },
    });
    expect(added.status(), await added.text()).toBe(200);
    book.phraseIds.push(((await added.json()) as { data: { id: number } }).data.id);
  }
});

test.afterAll(async ({ request }) => {
  if (book.code)
    await request.delete(`/api/v1/admin/book/${book.code}`, {
      headers: { Authorization: `Bearer ${admin.token}` },
    });
});

/** A member of their own, signed in on the page through the stored session, with an API client. */
async function member(page: Page, request: APIRequestContext, label: string) {
  const account = newAccount(label);
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  const session = (await login.json()) as Session;
  await useSession(page, session);
  const headers = { Authorization: `Bearer ${session.token}` };
  const call = async <T>(method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) => {
    const response = await request.fetch(`/api/v1/${path}`, { method, headers, data });
    expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
    return (await response.json()) as T;
  };
  return { session, call };
}

const axe = async (page: Page) => expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

const reviewPlaying = (page: Page) =>
  expect.poll(() =>
    page.evaluate(() => {
      const audio = document.querySelector<HTMLAudioElement>('audio[data-review-audio]');
      return !!audio && !audio.paused && audio.currentTime > 0;
    }),
  );

test('a member chooses the languages they speak, reorders them, and finds them after a reload', async ({
  page,
  request,
}) => {
  await member(page, request, 'speaks');
  await page.goto('/profile');
  const speaks = page.getByRole('region', { name: 'I speak' });
  await expect(speaks.getByText('No language chosen.')).toBeVisible();

  await speaks.getByLabel('Language', { exact: true }).selectOption('de');
  await speaks.getByRole('button', { name: 'Add language' }).click();
  // Any valid tag can be typed; it is spelt as the server keeps it.
  await speaks.getByLabel('Language', { exact: true }).selectOption('other');
  await speaks.getByLabel('Language code').fill('not a tag!');
  await speaks.getByLabel('Language code').press('Enter');
  await expect(speaks.getByText('“not a tag!” is not a language code')).toBeVisible();
  await speaks.getByLabel('Language code').fill('pt-br');
  await speaks.getByLabel('Language code').press('Enter');
  const list = speaks.getByRole('list', { name: 'Languages you speak, best first' });
  await expect(list.getByRole('listitem')).toHaveText([/^German/, /^Brazilian Portuguese.*pt-BR/]);

  // By keyboard: the moved language keeps the focus, on its other button once at the top.
  await speaks.getByRole('button', { name: 'Move Brazilian Portuguese up' }).focus();
  await page.keyboard.press('Enter');
  await expect(list.getByRole('listitem')).toHaveText([/^Brazilian Portuguese/, /^German/]);
  await expect(speaks.getByRole('button', { name: 'Move Brazilian Portuguese down' })).toBeFocused();
  await expect(speaks.getByRole('status').filter({ hasText: 'moved to place 1 of 2' })).toBeAttached();

  const [saved] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/v1/user/profile') && r.request().method() === 'PUT'),
    speaks.getByRole('button', { name: 'Save languages' }).click(),
  ]);
  expect(((await saved.json()) as { data: { speaks: string[] } }).data.speaks).toEqual(['pt-BR', 'de']);
  await expect(speaks.getByRole('status').filter({ hasText: /saved|updated/i })).toBeVisible();

  await page.reload();
  await expect(list.getByRole('listitem')).toHaveText([/^Brazilian Portuguese/, /^German/]);

  // A refusal from the server shows under the list, with its message.
  await page.route('**/api/v1/user/profile', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 422,
          json: {
            message: 'The given data was invalid.',
            errors: { speaks: ['Choose at most 5 languages.'] },
          },
        })
      : route.fallback(),
  );
  await speaks.getByRole('button', { name: 'Remove German' }).click();
  await expect(speaks.getByRole('button', { name: 'Remove Brazilian Portuguese' })).toBeFocused();
  await speaks.getByRole('button', { name: 'Save languages' }).click();
  await expect(speaks.getByRole('alert')).toContainText('The given data was invalid.');
  await expect(speaks.getByText('Choose at most 5 languages.')).toBeVisible();
});

test('an administrator adds a German translation to a phrase, and finds it on the form again', async ({
  page,
}) => {
  await useSession(page, admin);
  await page.goto(`/admin/chapter/phrase/edit/${book.phraseIds[0]}`);
  // The phrase's English translation is there already.
  const english = page.getByRole('group', { name: 'Translation 1: English' });
  await expect(english.getByLabel('Language')).toHaveValue('en');
  await expect(english.getByLabel('Text')).toHaveValue(FIRST.translations.en!);

  await page.getByRole('button', { name: 'Add a translation' }).click();
  const second = page.getByRole('group', { name: /^Translation 2/ });
  await expect(second.getByLabel('Language')).toBeFocused();
  await second.getByLabel('Language').fill('de');
  await expect(second).toHaveAccessibleName('Translation 2: German');
  await second.getByLabel('Text').fill('Das Boot kommt zweimal pro Woche.');

  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().includes(`/api/v1/admin/phrase/${book.phraseIds[0]}`)),
    page.getByRole('button', { name: 'Save changes' }).click(),
  ]);
  expect(answer.status(), await answer.text()).toBe(200);
  expect(
    ((await answer.json()) as { data: { translations: Record<string, string> } }).data.translations,
  ).toEqual({ en: FIRST.translations.en, de: 'Das Boot kommt zweimal pro Woche.' });

  await page.reload();
  const german = page.getByRole('group', { name: /: German$/ });
  await expect(german.getByLabel('Language')).toHaveValue('de');
  await expect(german.getByLabel('Text')).toHaveValue('Das Boot kommt zweimal pro Woche.');
  await expect(page.getByRole('group', { name: /: English$/ }).getByLabel('Text')).toHaveValue(
    FIRST.translations.en!,
  );

  // The Phrase List says which languages each phrase has.
  await page.goto(`/admin/chapter/phrase/list/${book.chapterId}`);
  await expect(page.getByRole('rowheader', { name: new RegExp(`^${FIRST.phrase}`) })).toContainText(
    'Translations: de, en',
  );

  // A language given twice is caught before sending; a removed row removes its translation (German goes,
  // English stays for the review journey).
  await page.goto(`/admin/chapter/phrase/edit/${book.phraseIds[0]}`);
  await page.getByRole('button', { name: 'Add a translation' }).click();
  const third = page.getByRole('group', { name: /^Translation 3/ });
  await third.getByLabel('Language').fill('DE');
  await expect(third.getByText('German has a translation above already.')).toBeVisible();
  await page.getByRole('button', { name: /^Remove translation 3/ }).click();
  await page.getByRole('button', { name: 'Remove translation 1 (German)' }).click();
  const [removed] = await Promise.all([
    page.waitForResponse((r) => r.url().includes(`/api/v1/admin/phrase/${book.phraseIds[0]}`)),
    page.getByRole('button', { name: 'Save changes' }).click(),
  ]);
  expect(
    ((await removed.json()) as { data: { translations: Record<string, string> } }).data.translations,
  ).toEqual({ en: FIRST.translations.en });
  await expect(page.getByRole('group', { name: /^Translation \d/ })).toHaveCount(1);
});

test('a phrase card is reviewed listening first, then listed under Phrases on /words', async ({
  page,
  request,
}) => {
  const { call } = await member(page, request, 'cards');
  await call('PUT', 'user/profile', { speaks: ['en'] });
  await call('POST', 'user/words', { phrase_id: book.phraseIds[0], kind: 'phrase' });

  await page.goto('/review');
  const reviewCard = page.getByRole('region', { name: 'Phrase card' });
  await expect(page.getByText('1 card left')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 })).toHaveText('Phrase card');
  // The front has the clip and no text, nowhere on the page (not in a status either), not even its start.
  const phraseStart = FIRST.phrase.slice(0, 16);
  await expect(page.getByText(phraseStart)).toHaveCount(0);
  await page.keyboard.press('p');
  await reviewPlaying(page).toBe(true);
  await expect(page.getByRole('button', { name: /^Replay the phrase/ })).toBeVisible();
  await page.keyboard.press('Space');
  await expect(page.getByText(FIRST.phrase, { exact: true })).toBeVisible();
  await expect(page.getByText(FIRST.translations.en!, { exact: true })).toBeVisible();
  await expect(page.getByText('Translation (English)')).toBeVisible();
  const glossary = page.locator('.review-glossary');
  await expect(glossary.locator('dt')).toHaveText(['bateau', 'semaine']);
  await expect(glossary.locator('dd')).toHaveText(['boat', 'week']);
  await page.keyboard.press('3');
  await expect(page.getByText(/All done for now\. The next card is due/)).toBeVisible();
  // Undo brings it back to its front: the text hidden again, and the status names the card without it.
  await page.keyboard.press('u');
  await expect(page.getByRole('heading', { level: 2 })).toHaveText('Phrase card');
  await expect(page.getByRole('status').filter({ hasText: 'Undone:' })).toHaveText(
    'Undone: the phrase card is back.',
  );
  await expect(page.getByText(phraseStart)).toHaveCount(0);
  await expect(reviewCard.getByRole('button', { name: /^Show answer/ })).toBeVisible();

  await call('POST', 'user/words', { phrase_id: book.phraseIds[1], term: 'courrier' });
  await page.goto('/words');
  await expect(page.getByText('1 word and 1 phrase')).toBeVisible();
  await page.getByLabel('Show').selectOption({ label: 'Phrases' });
  await expect(page.getByText('1 phrase', { exact: true })).toBeVisible();
  const card = page.getByRole('listitem').filter({ hasText: FIRST.phrase });
  await expect(card).toContainText(FIRST.translations.en!);
  await expect(page.locator('.word-list li')).toHaveCount(1);
  await card.getByRole('button', { name: `Play “${FIRST.phrase}”` }).click();
  await expect
    .poll(() => page.evaluate(() => !document.querySelector<HTMLAudioElement>('.words audio')!.paused))
    .toBe(true);
  await page.getByLabel('Show').selectOption({ label: 'Words' });
  await expect(page.getByText('1 word', { exact: true })).toBeVisible();
  await expect(page.locator('.word-list strong')).toHaveText(['courrier']);
  // Deleting a phrase card names it by its text; Undo brings it back.
  await page.getByLabel('Show').selectOption({ label: 'Words and phrases' });
  await page.getByRole('button', { name: `Delete the phrase “${FIRST.phrase}”` }).click();
  await expect(page.getByText(`“${FIRST.phrase}” deleted.`)).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('1 word and 1 phrase')).toBeVisible();
});

test('the dashboard shows dictation accuracy after two dictations', async ({ page, request }) => {
  const { call } = await member(page, request, 'dictation');
  const right = await call<{ data: { score: number } }>('POST', 'user/dictation', {
    phrase_id: book.phraseIds[0],
    text: FIRST.phrase,
  });
  const slip = await call<{ data: { score: number } }>('POST', 'user/dictation', {
    phrase_id: book.phraseIds[1],
    text: 'Il aporte le courier',
  });
  expect(right.data.score).toBe(100);
  expect(slip.data.score).toBeLessThan(100);
  const overall = Math.round((right.data.score + slip.data.score) / 2);

  await page.goto('/dashboard');
  await expect(page.locator('[data-stat="dictation"]')).toHaveText(`${overall}%`);
  await expect(page.locator('[data-stat="dictations"]')).toHaveText('2');
  const chart = page.getByRole('list', {
    name: `Dictation accuracy each day, the last 30 days: ${overall}% over 2 dictations.`,
  });
  await expect(chart).toBeVisible();
  await expect(chart.getByRole('listitem').last()).toHaveText(/: \d+% over 2 dictations$/);
  await expect(chart.getByRole('listitem').first()).toHaveText(/: no dictation$/);
  await page.getByText('Dictation accuracy as a table').click();
  const table = page.getByRole('table', { name: 'Dictation accuracy by day' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').last()).toContainText('2');
});

test('a day of dictation at 0% draws a mark, a day without dictation none', async ({ page, request }) => {
  const { call } = await member(page, request, 'dictation-zero');
  const zero = await call<{ data: { score: number } }>('POST', 'user/dictation', {
    phrase_id: book.phraseIds[1],
    text: 'xyz qwv',
  });
  expect(zero.data.score).toBe(0);

  await page.goto('/dashboard');
  await expect(page.locator('[data-stat="dictation"]')).toHaveText('0%');
  const chart = page.getByRole('list', { name: /^Dictation accuracy each day/ });
  const today = chart.getByRole('listitem').last();
  await expect(today).toHaveText(/: 0% over 1 dictation$/);
  // Today's bar is there and seen, however short; the first day, without dictation, has none.
  await expect(today.locator('.chart-bar')).toBeVisible();
  await expect(chart.getByRole('listitem').first().locator('.chart-bar')).toHaveCount(0);
});

test('the Readers panel lists the phrases most often marked Lost', async ({ page, request }) => {
  const { call } = await member(page, request, 'lost');
  await call('POST', 'user/listening', {
    events: [{ id: randomUUID(), phrase_id: book.phraseIds[1], ms: 1500, at: new Date().toISOString() }],
  });
  await call('PUT', 'user/marks', { phrase_id: book.phraseIds[1], mark: 'lost' });

  await useSession(page, admin);
  await page.goto(`/admin/book-detail/${book.code}`);
  const table = page.getByRole('table', { name: 'Most often lost' });
  await expect(table.getByRole('row').filter({ hasText: SECOND.phrase })).toContainText('1');
});

for (const [screen, layout] of SCREENS)
  test.describe(`on a ${screen}`, () => {
    test.use(layout);

    test('axe finds no violations on the practice pages', async ({ page, request }) => {
      test.setTimeout(120_000);
      const { call } = await member(page, request, `axe-${screen}`);
      await call('PUT', 'user/profile', { speaks: ['en', 'de'] });
      await call('POST', 'user/words', { phrase_id: book.phraseIds[0], kind: 'phrase' });
      await call('POST', 'user/dictation', { phrase_id: book.phraseIds[0], text: 'Le bateau arrive' });

      await page.goto('/profile');
      await expect(page.getByRole('list', { name: 'Languages you speak, best first' })).toBeVisible();
      await axe(page);
      await page.goto('/words');
      await expect(page.getByText('1 phrase', { exact: true })).toBeVisible();
      await axe(page);
      await page.goto('/review');
      await expect(page.getByRole('heading', { level: 2 })).toHaveText('Phrase card');
      await axe(page);
      await page.getByRole('button', { name: /^Show answer/ }).click();
      await expect(page.getByRole('group', { name: 'How well did you know it?' })).toBeVisible();
      await axe(page);
      await page.goto('/dashboard');
      await expect(page.locator('[data-stat="dictations"]')).toHaveText('1');
      await axe(page);

      await useSession(page, admin);
      await page.goto(`/admin/chapter/phrase/edit/${book.phraseIds[0]}`);
      await expect(page.getByRole('group', { name: /^Translation 1/ })).toBeVisible();
      await axe(page);
      await page.goto(`/admin/book-detail/${book.code}`);
      await expect(page.getByRole('heading', { name: 'Readers' })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: "Loading the readers' figures" })).toHaveCount(
        0,
      );
      await axe(page);
    });
  });

test.describe('one translation rule', () => {
  test.use({ locale: 'en-US' });

  test('a member with no "I speak" reads the same English translation in the reader and in review', async ({
    page,
    request,
  }) => {
    // No "I speak": the browser's en-US, then en, as the reader and review both choose.
    const { call } = await member(page, request, 'no-speaks');
    await call('PUT', 'user/marks', { phrase_id: book.phraseIds[0], mark: 'lost' });

    await page.goto(`/read/${book.code}/1`);
    await expect(page.locator('[data-phrases]')).toHaveAttribute('data-translations-asked', 'en');
    const inReader = page.locator('li').filter({ hasText: FIRST.phrase }).locator('.translation');
    await expect(inReader).toHaveText(FIRST.translations.en!);
    await expect(inReader).toHaveAttribute('lang', 'en');

    await page.goto('/review');
    await expect(page.getByRole('heading', { level: 2 })).toHaveText('Phrase card');
    await page.getByRole('button', { name: /^Show answer/ }).click();
    await expect(page.getByText(FIRST.phrase, { exact: true })).toBeVisible();
    await expect(page.getByText('Translation (English)')).toBeVisible();
    await expect(page.locator('.review-translation [lang="en"]')).toHaveText(FIRST.translations.en!);
    await expect(page.getByText(/No translation in the languages you speak/)).toHaveCount(0);

    // /words shows it too.
    await page.goto('/words');
    await expect(page.getByRole('listitem').filter({ hasText: FIRST.phrase })).toContainText(
      FIRST.translations.en!,
    );
  });
});
