// The reader's JavaScript with every practice mode in use (docs/practice.md): the page's scripts at first
// paint, then every module the modes fetch on demand (translations, marks, the word lookup, dictation, the
// voice recorder and its waveforms), gzipped at level 9 as the other JavaScript rows are. Budget: 80 KB for the whole.
import { gzipSync } from 'node:zlib';

const gz = (body) => (body.length ? gzipSync(body, { level: 9 }).length : 0);

/**
 * Opens `/read/{code}/1` in a fresh page and counts the gzipped bytes of each script it runs: `first`, at
 * load; `all`, after turning on the translation, dictation and shadowing with the recorder, and tapping a
 * phrase (which brings the marks). Inline scripts count too. Each script file is counted once.
 */
export async function measurePracticeJs(browser, base, code) {
  const context = await browser.newContext({ permissions: ['microphone'] });
  const page = await context.newPage();
  const seen = new Map();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script' && !seen.has(response.url()))
      seen.set(
        response.url(),
        response.body().catch(() => Buffer.alloc(0)),
      );
  });
  const total = async () => {
    const bodies = await Promise.all(seen.values());
    const inline = await page.$$eval('script:not([src]):not([type="application/ld+json"])', (nodes) =>
      nodes.map((n) => n.textContent ?? ''),
    );
    return [...bodies, ...inline.map((text) => Buffer.from(text))].reduce((sum, b) => sum + gz(b), 0);
  };
  try {
    await page.goto(`${base}/read/${code}/1`, { waitUntil: 'networkidle' });
    const first = await total();
    const firstFiles = seen.size;
    // Played from its play icon: a click mid-phrase lands on a word and opens its lookup (word-taps.ts).
    await page
      .locator('ol[data-phrases] li button.phrase')
      .first()
      .click({ position: { x: 8, y: 18 } });
    await page.locator('[data-action="settings"]').click();
    const translation = page.locator('[data-action="translation"]');
    if (await translation.isVisible()) await translation.click();
    await page.locator('input[name="reader-shadow"][value="1"]').check({ force: true });
    await page.waitForLoadState('networkidle');
    await page.locator('input[name="reader-shadow"][value="0"]').check({ force: true });
    await page.locator('input[name="reader-mode"][value="dictation"]').check({ force: true });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const all = await total();
    return { first, all, firstFiles, allFiles: seen.size };
  } finally {
    await context.close();
  }
}
