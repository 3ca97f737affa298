import { expect, test } from './helpers/fixtures';

/**
 * Issue 36: the reader in the dark theme, at the largest text size, does not move while it loads. Lighthouse
 * (its mobile preset, in Debian's Chromium) measures the layout shift of a load where the device already
 * holds that choice: the page must be drawn that way from its first paint (site/lib/inline-scripts.ts,
 * APPEARANCE), not repainted and reflowed once a script reads it.
 */
const BOOK = 'der-leuchtturmwarter';

test('Lighthouse measures no layout shift on the reader in dark mode', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const puppeteer = await import('puppeteer-core');
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--disable-gpu',
      '--no-first-run',
    ],
  });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    const url = `${baseURL}/read/${BOOK}/1`;
    await page.goto(url);
    await page.evaluate(() =>
      localStorage.setItem('appearance', JSON.stringify({ theme: 'dark', textSize: 4, lineSpacing: 3 })),
    );
    // The device keeps its choice for the measured load: Lighthouse would otherwise clear the origin's storage.
    const result = await lighthouse(
      url,
      {
        logLevel: 'error',
        output: 'json',
        onlyAudits: ['cumulative-layout-shift'],
        disableStorageReset: true,
      },
      undefined,
      page,
    );
    const lhr = result!.lhr;
    expect(lhr.runtimeError ?? null).toBeNull();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    expect(lhr.audits['cumulative-layout-shift'].numericValue).toBe(0);
    await browser.disconnect();
  } finally {
    chrome.kill();
  }
});
