import { expect, test } from './helpers/fixtures';
import { adminSession, media, uniqueTitle, useSession, type Session } from './helpers/admin';
import type { Locator, Page } from '@playwright/test';

/**
 * The three journeys of the admin catalogue issue, in order, on one book of their own: add and edit a
 * book; add chapters and phrases and reorder them; delete a phrase, a chapter and the book.
 */
test.describe.configure({ mode: 'serial' });

let session: Session;
const book = { title: uniqueTitle('Journey Book'), code: '', id: 0 };
const renamed = `${book.title} Revised`;
const phrases = ['Bonjour, Marie.', 'Il fait beau.', 'On y va ?'];
let chapterId = 0;

test.beforeAll(async ({ request }) => {
  session = await adminSession(request);
});

test.beforeEach(async ({ page }) => {
  await useSession(page, session);
});

const main = (page: Page) => page.getByRole('main');
const bookRow = (page: Page, title: string) =>
  page.getByRole('table', { name: 'Book List' }).getByRole('row').filter({ hasText: title });
const phraseTexts = (page: Page) =>
  page.getByRole('table', { name: 'Phrase List' }).getByRole('rowheader').allTextContents();

async function confirmDialog(page: Page, button: string): Promise<Locator> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
  return dialog;
}

test('an administrator adds a book with a cover and audio, finds it in the list and edits it', async ({
  page,
}) => {
  await page.goto('/admin/dashboard');
  await main(page).getByRole('link', { name: 'Add Book' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard\/create-book$/);

  await page.getByLabel('Title').fill(book.title);
  await page.getByLabel('Author').fill('Ada Journey');
  await page.getByLabel('Narrated by').fill('Nora Narrator');
  // The language is required on Add Book; its English name is taken for its code.
  await expect(page.getByLabel('Language')).toHaveAttribute('required', '');
  await page.getByLabel('Language').fill('French');
  await page.getByLabel('Hours').fill('2');
  await expect(page.getByLabel('Language')).toHaveValue('fr');
  await expect(page.getByText('fr: French')).toBeVisible();
  await page.getByLabel('Minutes').fill('35');
  await page.getByLabel('Description').fill('A book made by the admin journey.\nOn two lines.');
  await expect(page.getByLabel('Difficulty')).toHaveValue('Easy');
  await expect(page.getByLabel('CEFR level')).toHaveValue('');
  await page.getByLabel('CEFR level').selectOption('A2');
  await page.getByLabel('Cover image').setInputFiles(media.coverJpg);
  await expect(page.getByRole('img', { name: /^Preview of the chosen file cover\.jpg/ })).toBeVisible();
  await page.getByLabel('Sample audio').setInputFiles(media.clip);
  await page.getByLabel('Sample text').fill('Première ligne.\nDeuxième ligne.');

  const [created] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/v1/admin/book') && r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Add Book' }).click(),
  ]);
  expect(created.status()).toBe(200);
  const body = (await created.json()) as {
    message: string;
    data: { book_code: string; id: number; language: string; cefr: string };
  };
  expect([body.data.language, body.data.cefr]).toEqual(['fr', 'A2']);
  book.code = body.data.book_code;
  book.id = body.data.id;

  await expect(page.getByRole('status').filter({ hasText: body.message })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('value', '100');
  await expect(page.getByText('Upload complete: 100%')).toBeVisible();
  // The form is empty again, ready for another book.
  await expect(page.getByLabel('Title')).toHaveValue('');

  // The newest book heads the list; the search finds it on the server and the URL keeps the search.
  await page.goto('/admin/books');
  await expect(page.getByRole('table', { name: 'Book List' }).getByRole('rowheader').first()).toHaveText(
    book.title,
  );
  await page.getByLabel('Search books').fill(book.title);
  await expect(page).toHaveURL(
    (url) => url.pathname === '/admin/books' && url.search === `?${new URLSearchParams({ q: book.title })}`,
  );
  await expect(page.getByRole('table', { name: 'Book List' }).getByRole('rowheader')).toHaveText([
    book.title,
  ]);
  const row = bookRow(page, book.title);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell', { name: '2H 35M' })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Ada Journey' })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'French', exact: true })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Easy CEFR A2' })).toBeVisible();
  // A Play button, not a native player per row (which showed 0:00 / 0:00): nothing loads until played.
  await expect(row.getByRole('button', { name: `Play the sample of ${book.title}` })).toBeVisible();
  await expect(row.locator('audio')).toHaveCount(0);

  await row.getByRole('link', { name: `Edit ${book.title}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/books/edit/${book.code}$`));
  await expect(page.getByLabel('Title')).toHaveValue(book.title);
  await expect(page.getByLabel('Sample text')).toHaveValue('Première ligne.\nDeuxième ligne.');
  const oldCover = await page
    .getByRole('img', { name: `Current cover of ${book.title}` })
    .getAttribute('src');

  await expect(page.getByLabel('Language')).toHaveValue('fr');
  await expect(page.getByLabel('Language')).not.toHaveAttribute('required');
  await expect(page.getByLabel('CEFR level')).toHaveValue('A2');
  await page.getByLabel('Title').fill(renamed);
  await page.getByLabel('Difficulty').selectOption('Hard');
  await page.getByLabel('CEFR level').selectOption('B1');
  await page.getByLabel('New cover image (optional)').setInputFiles(media.coverPng);
  await expect(page.getByRole('img', { name: /^Preview of the chosen file cover\.png/ })).toBeVisible();
  await page.getByRole('button', { name: 'Save changes' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'The book has been updated.' })).toBeVisible();
  await expect(page.getByText('Upload complete: 100%')).toBeVisible();
  const newCover = page.getByRole('img', { name: `Current cover of ${renamed}` });
  await expect(newCover).toBeVisible();
  expect(await newCover.getAttribute('src')).not.toBe(oldCover);
  await expect(page.getByLabel('Difficulty')).toHaveValue('Hard');

  await page.reload();
  await expect(page.getByLabel('Title')).toHaveValue(renamed);
  await expect(page.getByLabel('Difficulty')).toHaveValue('Hard');
  await expect(page.getByLabel('CEFR level')).toHaveValue('B1');
  await page.goto('/admin/books');
  await expect(bookRow(page, renamed).getByRole('cell', { name: 'Hard CEFR B1' })).toBeVisible();

  await page.goto(`/admin/book-detail/${book.code}`);
  const facts = page.getByRole('definition');
  await expect(facts.filter({ hasText: 'B1 · Intermediate' })).toHaveCount(1);
  await expect(facts.filter({ hasText: 'French (fr)' })).toHaveCount(1);
  // No leftover caption; the sample's player knows its length before it plays.
  await expect(page.getByText('Book Detail Admin Side')).toHaveCount(0);
  const sample = page.locator('audio[aria-labelledby="sample-heading"]');
  await expect(sample).toHaveAttribute('preload', 'metadata');
  await expect.poll(() => sample.evaluate((audio: HTMLAudioElement) => audio.duration)).toBeGreaterThan(2.9);
  // "Preview as learner" leads to the book's public page.
  const preview = page.getByRole('link', { name: 'Preview as learner' });
  await expect(preview).toHaveAccessibleDescription(/private window/);
  await preview.click();
  await expect(page).toHaveURL(new RegExp(`/book-detail/${book.code}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(renamed);
});

test('they add two chapters and three phrases with audio, and reorder the phrases', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/admin/books');
  await bookRow(page, renamed)
    .getByRole('link', { name: `Chapter List of ${renamed}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/chapter/list/${book.id}$`));
  await expect(page.getByRole('table', { name: `Chapters of ${renamed}` })).toContainText('No chapters yet.');

  await main(page).getByRole('link', { name: 'Add Chapter' }).click();
  for (const [number, title] of [
    ['1', 'Le départ'],
    ['2', "L'arrivée"],
  ]) {
    await expect(page.getByLabel('Chapter number')).toHaveValue(number);
    await page.getByLabel('Chapter title').fill(title);
    await page.getByRole('button', { name: 'Add Chapter' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The chapter has been created.' })).toBeVisible();
  }
  await page.getByRole('link', { name: 'Back to the Chapter List' }).click();
  const chapters = page.getByRole('table', { name: `Chapters of ${renamed}` });
  await expect(chapters.getByRole('rowheader')).toHaveText(['Le départ', "L'arrivée"]);

  await chapters.getByRole('link', { name: 'Phrase List of Le départ' }).click();
  chapterId = Number(page.url().split('/').pop());
  await expect(page.getByRole('table', { name: 'Phrase List' })).toContainText('No phrases yet.');
  await main(page).getByRole('link', { name: 'Add Phrase' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/chapter/phrase/create/${chapterId}$`));

  for (const [index, phrase] of phrases.entries()) {
    await page.getByLabel('Phrase', { exact: true }).fill(phrase);
    await page.getByLabel('Dictionary').fill(`mot ${index} — word ${index}\nautre — other`);
    await page.getByLabel('MP3 for phrase').setInputFiles(media.clip);
    await page.getByRole('button', { name: 'Add Phrase' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The phrase has been added.' })).toBeVisible();
    await expect(page.getByText('Upload complete: 100%')).toBeVisible();
    // Emptied, and ready for the next one.
    await expect(page.getByLabel('Phrase', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Phrase', { exact: true })).toBeFocused();
  }

  await page.getByRole('link', { name: 'Back to the Phrase List' }).click();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Le départ');
  expect(await phraseTexts(page)).toEqual(phrases);
  const table = page.getByRole('table', { name: 'Phrase List' });
  // The dictionary keeps its line breaks.
  const dictionary = table.getByRole('cell', { name: 'mot 0 — word 0 autre — other' });
  expect(await dictionary.evaluate((cell: HTMLElement) => cell.innerText)).toBe(
    'mot 0 — word 0\nautre — other',
  );
  // Each row shows its clip's length (the fixture lasts 3 s) and a Play button; no row loads a clip.
  await expect(table.getByRole('row').filter({ hasText: phrases[0] })).toContainText('0:03');
  await expect(table.locator('audio')).toHaveCount(0);
  const play = table.getByRole('button', { name: 'Play phrase 1' });
  await play.click();
  // The button says Stop once the clip's `playing` event fired: it really sounds.
  const stop = table.getByRole('button', { name: 'Stop phrase 1' });
  await expect(stop).toBeVisible();
  // Another row's clip takes over; Stop stops it.
  await table.getByRole('button', { name: 'Play phrase 2' }).click();
  await expect(table.getByRole('button', { name: 'Stop phrase 2' })).toBeVisible();
  await expect(play).toBeVisible();
  await table.getByRole('button', { name: 'Stop phrase 2' }).click();
  await expect(table.getByRole('button', { name: 'Play phrase 2' })).toBeVisible();

  // With the keyboard: pick up the third phrase, move it up twice, drop it.
  const saved = () => page.waitForResponse(`**/api/v1/admin/chapter/${chapterId}/phrase-order`);
  const handle = page.getByRole('button', { name: 'Reorder phrase 3' });
  await handle.focus();
  await page.keyboard.press('Space');
  await expect(handle).toHaveAttribute('aria-pressed', 'true');
  const savedByKeyboard = saved();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Reorder phrase 1' })).toBeFocused();
  await expect(page.getByText(`Dropped “${phrases[2]}” at position 1.`)).toBeAttached();
  expect((await savedByKeyboard).status()).toBe(200);
  await expect(
    page.getByRole('status').filter({ hasText: 'The phrases have been reordered.' }),
  ).toBeVisible();
  expect(await phraseTexts(page)).toEqual([phrases[2], phrases[0], phrases[1]]);

  // With a Move down button.
  const savedByButton = saved();
  await page.getByRole('button', { name: 'Move phrase 1 down' }).click();
  await expect(page.getByRole('button', { name: 'Move phrase 2 down' })).toBeFocused();
  expect((await savedByButton).status()).toBe(200);
  expect(await phraseTexts(page)).toEqual([phrases[0], phrases[2], phrases[1]]);

  // With the mouse: drag the last row's handle onto the first row.
  const savedByDrag = saved();
  await page
    .getByRole('button', { name: 'Reorder phrase 3' })
    .dragTo(table.getByRole('row').filter({ hasText: phrases[0] }));
  expect((await savedByDrag).status()).toBe(200);
  const expected = [phrases[1], phrases[0], phrases[2]];
  expect(await phraseTexts(page)).toEqual(expected);

  await page.reload();
  await expect(page.getByRole('table', { name: 'Phrase List' }).getByRole('rowheader')).toHaveText(expected);
});

test('they delete a phrase, a chapter and then the book', async ({ page, request }) => {
  await page.goto(`/admin/chapter/phrase/list/${chapterId}`);
  const table = page.getByRole('table', { name: 'Phrase List' });
  await expect(table.getByRole('rowheader')).toHaveCount(3);
  const first = await table.getByRole('rowheader').first().textContent();

  await page.getByRole('button', { name: 'Delete phrase 1' }).click();
  await confirmDialog(page, 'Delete phrase');
  await expect(page.getByRole('status').filter({ hasText: 'The phrase has been deleted.' })).toBeVisible();
  // The removed row's button cannot keep the focus: the message takes it.
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.textContent))
    .toBe('The phrase has been deleted.');
  await expect(table.getByRole('rowheader')).toHaveCount(2);
  await expect(table).not.toContainText(first!);
  await page.reload();
  await expect(table.getByRole('rowheader')).toHaveCount(2);
  await expect(table).not.toContainText(first!);

  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Chapters' }).click();
  const chapters = page.getByRole('table', { name: `Chapters of ${renamed}` });
  await expect(chapters.getByRole('row').filter({ hasText: 'Le départ' })).toContainText('2');
  // Cancel first: nothing happens.
  await page.getByRole('button', { name: "Delete chapter L'arrivée" }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: "Delete chapter L'arrivée" })).toBeFocused();
  await page.getByRole('button', { name: 'Delete chapter Le départ' }).click();
  await confirmDialog(page, 'Delete chapter');
  await expect(page.getByRole('status').filter({ hasText: 'The chapter has been deleted.' })).toBeVisible();
  await expect(chapters.getByRole('rowheader')).toHaveText(["L'arrivée"]);
  await page.reload();
  await expect(chapters.getByRole('rowheader')).toHaveText(["L'arrivée"]);

  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Books' }).click();
  await expect(bookRow(page, renamed)).toHaveCount(1);
  await page.getByRole('button', { name: `Delete ${renamed}` }).click();
  await confirmDialog(page, 'Delete book');
  await expect(page.getByRole('status').filter({ hasText: 'The book has been deleted.' })).toBeVisible();
  await expect(bookRow(page, renamed)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('table', { name: 'Book List' }).getByRole('rowheader').first()).toBeVisible();
  await expect(bookRow(page, renamed)).toHaveCount(0);

  const publicPage = await request.get(`/book-detail/${book.code}`);
  expect(publicPage.status()).toBe(404);
});
