import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './helpers/fixtures';
import { zip } from './helpers/zip';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  adminApi,
  adminSession,
  media,
  newBookChapter,
  removeBook,
  useSession,
  type Session,
} from './helpers/admin';
import { SCREENS } from './helpers/screens';

let session: Session;
test.beforeAll(async ({ request }) => {
  session = await adminSession(request);
});

test('an administrator imports a chapter from a TSV and a zip, previews, commits and reads it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const books = await adminApi<{ data: Array<{ id: number; book_code: string }> }>(
    page.request,
    session,
    'GET',
    'admin/book',
  );
  const book = books.body.data[0];
  const chapterNo = 40 + Math.floor(Math.random() * 50);
  const created = await page.request.post('/api/v1/admin/chapter', {
    headers: { Authorization: `Bearer ${session.token}` },
    data: { title: 'Imported chapter', chapter_no: chapterNo, book_id: book.id },
  });
  expect(created.status(), await created.text()).toBe(200);
  const chapterId = ((await created.json()) as { data: { id: number } }).data.id;
  await useSession(page, session);

  await page.goto(`/admin/chapter/phrase/list/${chapterId}`);
  await page.getByRole('link', { name: 'Import phrases' }).click();
  await expect(page.getByRole('heading', { name: 'Import phrases' })).toBeVisible();
  const clip = readFileSync(media.clip);
  const tsv =
    'phrase\tdictionary\taudio\nDer Zug fährt ab.\tZug — train | abfahren — to leave\t1.mp3\nEr winkt.\twinken — to wave\t2.mp3\n';
  await page
    .getByLabel('Text file (TSV, CSV or plain text)')
    .setInputFiles({ name: 'chapter.tsv', mimeType: 'text/tab-separated-values', buffer: Buffer.from(tsv) });
  await page.getByLabel('Clips: a zip, or several files').setInputFiles({
    name: 'clips.zip',
    mimeType: 'application/zip',
    buffer: await zip({ '1.mp3': clip, '2.mp3': clip }),
  });
  await page.getByRole('button', { name: 'Preview' }).click();

  await expect(page.getByRole('heading', { name: 'Preview: 2 phrases' })).toBeVisible();
  await expect(page.getByText('Every row is ready.')).toBeVisible();
  const rows = page.getByRole('region', { name: 'Rows to import' }).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Der Zug fährt ab.');
  await expect(rows.nth(0)).toContainText('abfahren — to leave');
  await page.getByRole('button', { name: 'Play row 1' }).click();
  await expect
    .poll(() =>
      page.evaluate(() => !document.querySelector<HTMLAudioElement>('audio[data-import-audio]')!.paused),
    )
    .toBe(true);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.getByRole('button', { name: 'Add 2 phrases' }).click();
  await expect(page.getByText('2 phrases have been added to the chapter.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the Phrase List' }).click();
  await expect(page.getByRole('rowheader', { name: 'Der Zug fährt ab.' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'Er winkt.' })).toBeVisible();

  await page.goto(`/read/${book.book_code}/${chapterNo}`);
  await expect(page.locator('li#p-1 .phrase')).toHaveText('Der Zug fährt ab.');
  await expect(page.locator('li#p-2 .phrase')).toHaveText('Er winkt.');
});

/**
 * One recording of three phrases, as WAV: three 1.5 s tones with a second of silence between them, so
 * that the server cuts at about 2.0 s and 4.5 s.
 */
function recordingOfThree(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'lingonovel-e2e-recording-'));
  try {
    const file = join(dir, 'chapter.wav');
    const tone = (hz: number) => ['-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=1.5:sample_rate=44100`];
    const pause = ['-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono:d=1'];
    const made = spawnSync(
      process.env.FFMPEG_PATH ?? 'ffmpeg',
      [
        '-v',
        'error',
        ...tone(330),
        ...pause,
        ...tone(440),
        ...pause,
        ...tone(550),
        '-filter_complex',
        '[0:a][1:a][2:a][3:a][4:a]concat=n=5:v=0:a=1[out]',
        '-map',
        '[out]',
        '-c:a',
        'pcm_s16le',
        file,
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`ffmpeg could not make the recording: ${made.stderr}`);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const [screen, layout] of SCREENS)
  test.describe(`on a ${screen}`, () => {
    test.use(layout);

    test('the waveform editor moves a cut by dragging, and the commit cuts the clips there', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      // A book without a language: tones, cut at their pauses (no reference voice to align them with).
      const { bookCode, chapterId } = await newBookChapter(page.request, session, null);
      const book = { book_code: bookCode };
      const chapterNo = 1;
      await useSession(page, session);

      await page.goto(`/admin/chapter/phrase/import/${chapterId}`);
      await page.getByLabel('Text file (TSV, CSV or plain text)').setInputFiles({
        name: 'chapter.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('Eins.\nZwei.\nDrei.\n'),
      });
      await page.getByLabel('Or one recording of the whole chapter (aligned to its text)').setInputFiles({
        name: 'chapter.wav',
        mimeType: 'audio/wav',
        buffer: recordingOfThree(),
      });
      const [staged] = await Promise.all([
        page.waitForResponse((res) => /\/admin\/chapter\/\d+\/import$/.test(res.url())),
        page.getByRole('button', { name: 'Preview' }).click(),
      ]);
      const importId = ((await staged.json()) as { data: { import_id: string } }).data.import_id;
      await expect(page.getByRole('heading', { name: 'Preview: 3 phrases' })).toBeVisible();

      // The waveform is drawn from the server's peaks, with a handle per cut.
      const handle = page.getByRole('slider', { name: 'Start of segment 2' });
      await expect(handle).toBeVisible();
      await expect(page.getByRole('slider', { name: 'Start of segment 3' })).toBeVisible();
      const before = Number(await handle.getAttribute('aria-valuenow'));
      expect(before).toBeGreaterThan(1500);
      expect(before).toBeLessThan(2500);
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

      // Clicking the third segment plays it.
      await page.locator('.waveform').scrollIntoViewIfNeeded();
      const wave = (await page.locator('.waveform').boundingBox())!;
      await page.mouse.click(wave.x + wave.width * 0.9, wave.y + wave.height * 0.7);
      await expect
        .poll(() =>
          page.evaluate(() => {
            const audio = document.querySelector<HTMLAudioElement>('audio[data-import-audio]')!;
            return !audio.paused && audio.currentTime > 4;
          }),
        )
        .toBe(true);
      await page.evaluate(() =>
        document.querySelector<HTMLAudioElement>('audio[data-import-audio]')!.pause(),
      );
      // It plays the signed preview URL from this site (the CSP allows no blob: media).
      const src = await page.evaluate(
        () => document.querySelector<HTMLAudioElement>('audio[data-import-audio]')!.src,
      );
      expect(new URL(src).origin).toBe(new URL(page.url()).origin);
      expect(new URL(src).pathname).toMatch(/^\/api\/v1\/import-preview\//);

      // Drag the first cut about 70 px to the left; the move is saved through the boundaries API.
      const box = (await handle.boundingBox())!;
      const saved = page.waitForResponse(
        (res) =>
          res.url().endsWith(`/admin/import/${importId}/boundaries`) && res.request().method() === 'PUT',
      );
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      for (let step = 1; step <= 7; step++)
        await page.mouse.move(box.x + box.width / 2 - step * 10, box.y + box.height / 2);
      await page.mouse.up();
      expect((await saved).status()).toBe(200);
      const after = Number(await handle.getAttribute('aria-valuenow'));
      const msPerPx = 6500 / wave.width;
      expect(Math.abs(before - after - 70 * msPerPx)).toBeLessThan(15 * msPerPx);
      // The typed times follow the handle, and the server holds the new cut.
      await expect(page.getByLabel('Start of segment 2, in seconds')).toHaveValue((after / 1000).toFixed(3));
      const held = await adminApi<{ data: { recording: { cuts: number[] } } }>(
        page.request,
        session,
        'GET',
        `admin/import/${importId}`,
      );
      const cuts = held.body.data.recording.cuts;
      expect(cuts[0]).toBe(after);

      await page.getByRole('button', { name: 'Add 3 phrases' }).click();
      await expect(page.getByText('3 phrases have been added to the chapter.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Open in the reader' })).toHaveAttribute(
        'href',
        `/read/${book.book_code}/${chapterNo}`,
      );
      // The clips were cut where the handle was dropped.
      const phrases = await adminApi<{ data: { phrases: Array<{ phrase: string; duration_ms: number }> } }>(
        page.request,
        session,
        'GET',
        `admin/phrase?chapter_id=${chapterId}`,
      );
      const lengths = phrases.body.data.phrases.map((phrase) => phrase.duration_ms);
      expect(Math.abs(lengths[0] - after)).toBeLessThan(100);
      expect(Math.abs(lengths[1] - (cuts[1] - after))).toBeLessThan(100);
      await page.getByRole('link', { name: 'Open in the reader' }).click();
      await expect(page).toHaveURL(new RegExp(`/read/${book.book_code}/${chapterNo}$`));
      await expect(page.locator('li#p-1 .phrase')).toHaveText('Eins.');
      await removeBook(page.request, session, bookCode);
    });
  });

test('problems show on their rows and keep the commit closed; discard leaves nothing', async ({ page }) => {
  const books = await adminApi<{ data: Array<{ id: number }> }>(page.request, session, 'GET', 'admin/book');
  const created = await page.request.post('/api/v1/admin/chapter', {
    headers: { Authorization: `Bearer ${session.token}` },
    data: {
      title: 'Broken import',
      chapter_no: 100 + Math.floor(Math.random() * 800),
      book_id: books.body.data[1].id,
    },
  });
  const chapterId = ((await created.json()) as { data: { id: number } }).data.id;
  await useSession(page, session);
  await page.goto(`/admin/chapter/phrase/import/${chapterId}`);
  await page
    .getByLabel('Text file (TSV, CSV or plain text)')
    .setInputFiles({ name: 'c.txt', mimeType: 'text/plain', buffer: Buffer.from('Eins.\n\nZwei.\n') });
  await page
    .getByLabel('Clips: a zip, or several files')
    .setInputFiles([{ name: '1.mp3', mimeType: 'audio/mpeg', buffer: readFileSync(media.clip) }]);
  await page.getByRole('button', { name: 'Preview' }).click();
  const rows = page.getByRole('region', { name: 'Rows to import' }).locator('tbody tr');
  await expect(rows.nth(1)).toContainText(
    'No clip for this phrase: The text has 2 phrases and the upload 1 clip.',
  );
  await expect(page.getByRole('button', { name: 'Add 2 phrases' })).toBeDisabled();
  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByText('The import has been discarded. Nothing was added.')).toBeVisible();
  const phrases = await adminApi<{ data: { phrases: unknown[] } }>(
    page.request,
    session,
    'GET',
    `admin/phrase?chapter_id=${chapterId}`,
  );
  expect(phrases.body.data.phrases).toEqual([]);
});

test('a book is exported from its admin page and imported back as a new book', async ({ page }) => {
  test.setTimeout(90_000);
  const books = await adminApi<{ data: Array<{ book_code: string; title: string }> }>(
    page.request,
    session,
    'GET',
    'admin/book',
  );
  const book = books.body.data[2];
  await useSession(page, session);
  await page.goto(`/admin/book-detail/${book.book_code}`);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Export ${book.title} as a zip` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${book.book_code}.zip`);

  await page.goto('/admin/books');
  await page.getByRole('link', { name: 'Import a book' }).click();
  await page.getByLabel('Book zip').setInputFiles(await file.path());
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('heading', { name: `Preview: ${book.title}` })).toBeVisible();
  await expect(page.getByText('The book is ready to import.')).toBeVisible();
  await page.getByRole('button', { name: 'Import the book' }).click();
  await expect(page.getByText(/has been imported/)).toBeVisible();
  await page.getByRole('link', { name: 'Open the book' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/book-detail/${book.book_code}-\\d+$`));
});
