import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ENGLISH,
  makeSampleRecording,
  type SampleRecording,
} from '../server/publishing/alignment/sample-recordings';
import { expect, test } from './helpers/fixtures';
import {
  adminApi,
  adminSession,
  newBookChapter,
  removeBook,
  useSession,
  type Session,
} from './helpers/admin';
import { SCREENS } from './helpers/screens';

/**
 * A narrated recording imported into a chapter of an English book: aligned to its text by a job (the
 * journey's server aligns only recordings under 20 s within the request), then looked through in the
 * editor from its least confident segment (docs/alignment.md). The text has two sentences the narrator
 * never reads, so a few segments are unsure.
 */
let session: Session;
let sample: SampleRecording;
let text: string[];
const dir = mkdtempSync(join(tmpdir(), 'lingonovel-e2e-aligned-'));

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  session = await adminSession(request);
  sample = await makeSampleRecording(
    ENGLISH,
    { sentences: 12, intro: 'music', tempo: 1, seed: 41, noiseDb: 45 },
    dir,
  );
  // Sentences 4 and 9 of the text are not in the recording.
  text = sample.phrases.flatMap((phrase, i) =>
    i === 3 || i === 8 ? [ENGLISH.sentences[20 + (i % 4)], phrase] : [phrase],
  );
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Row {
  n: number;
  confidence: number;
}
interface Ready {
  status: 'ready';
  recording: { start_ms: number; end_ms: number; cuts: number[]; unsure_below: number; unsure: number };
  rows: Row[];
}

for (const [screen, layout] of SCREENS)
  test.describe(`on a ${screen}`, () => {
    test.use(layout);

    test('the editor shows the alignment as it runs, opens at the least confident segment, and goes through the unsure ones', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const { bookCode, chapterId } = await newBookChapter(page.request, session, 'en');
      await useSession(page, session);
      await page.goto(`/admin/chapter/phrase/import/${chapterId}`);
      await page.getByLabel('Text file (TSV, CSV or plain text)').setInputFiles({
        name: 'chapter.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(text.join('\n') + '\n'),
      });
      await page.getByLabel('Or one recording of the whole chapter (aligned to its text)').setInputFiles({
        name: 'chapter.mp3',
        mimeType: 'audio/mpeg',
        buffer: readFileSync(sample.file),
      });
      const [staged] = await Promise.all([
        page.waitForResponse((res) => /\/admin\/chapter\/\d+\/import$/.test(res.url())),
        page.getByRole('button', { name: 'Preview' }).click(),
      ]);
      // Longer than the server aligns within the request: a job, whose progress the page shows.
      expect(staged.status()).toBe(202);
      const importId = ((await staged.json()) as { data: { import_id: string } }).data.import_id;
      await expect(page.getByRole('heading', { name: 'Aligning the recording to its text' })).toBeVisible();
      await expect(page.getByRole('progressbar', { name: 'Alignment progress' })).toBeVisible();

      // Left and come back to: the page finds the import again.
      await page.goto('/admin/books');
      await page.goto(`/admin/chapter/phrase/import/${chapterId}`);
      await expect(page.getByRole('heading', { name: `Preview: ${text.length} phrases` })).toBeVisible({
        timeout: 90_000,
      });
      const preview = (
        await adminApi<{ data: Ready }>(page.request, session, 'GET', `admin/import/${importId}`)
      ).body.data;
      expect(preview.status).toBe('ready');
      const unsure = preview.rows.filter((row) => row.confidence < preview.recording.unsure_below);
      expect(unsure.length).toBeGreaterThanOrEqual(2);
      expect(unsure.length).toBeLessThan(text.length / 2);
      const least = preview.rows.reduce((a, b) => (b.confidence < a.confidence ? b : a));

      // It opens at the least confident segment: named, its phrase shown, its row marked.
      const looked = page.getByRole('region', { name: 'Segment looked at' });
      await expect(looked).toContainText(`Segment ${least.n} ·`);
      await expect(looked).toContainText(text[least.n - 1]);
      await expect(page.locator('tr.is-current th')).toHaveText(String(least.n));
      // The waveform shows each segment's phrase, and the text's start and end as handles.
      await expect(page.getByRole('slider', { name: 'Start of the text' })).toHaveAttribute(
        'aria-valuenow',
        String(preview.recording.start_ms),
      );
      await expect(page.getByRole('slider', { name: 'End of the text' })).toHaveAttribute(
        'aria-valuenow',
        String(preview.recording.end_ms),
      );
      await expect(page.locator('.waveform')).toBeVisible();
      expect(
        await page.evaluate(() =>
          [
            ...document
              .querySelector('.waveform > div')!
              .shadowRoot!.querySelectorAll('.waveform-segment-label'),
          ].map((label) => label.textContent),
        ),
      ).toContain(`1 ${text[0]}`);
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

      // "Next unsure" and "Previous unsure", by button and by key, go through the unsure segments in order.
      const order = unsure.map((row) => row.n);
      const at = order.indexOf(least.n);
      const next = page.getByRole('button', { name: 'Next unsure' });
      const previous = page.getByRole('button', { name: 'Previous unsure' });
      if (at < order.length - 1) {
        await next.click();
        await expect(looked).toContainText(`Segment ${order[at + 1]} ·`);
        await expect(page.locator('tr.is-current th')).toHaveText(String(order[at + 1]));
        await page.keyboard.press('p');
        await expect(looked).toContainText(`Segment ${least.n} ·`);
      } else {
        await expect(next).toBeDisabled();
        await previous.click();
        await expect(looked).toContainText(`Segment ${order[at - 1]} ·`);
        await page.keyboard.press('n');
        await expect(looked).toContainText(`Segment ${least.n} ·`);
      }
      await page.getByRole('button', { name: 'Previous unsure' }).focus();
      for (let i = 0; i < order.length; i++) await page.keyboard.press('p');
      await expect(looked).toContainText(`Segment ${order[0]} ·`);
      await expect(previous).toBeDisabled();

      // A few unsure rows do not block the commit.
      await expect(page.getByText(/unsure: listen to them first/)).toBeVisible();
      await page.getByRole('button', { name: `Add ${text.length} phrases` }).click();
      await expect(page.getByText(`${text.length} phrases have been added to the chapter.`)).toBeVisible();
      await removeBook(page.request, session, bookCode);
    });
  });
