// The reader's word lookup as a learner feels it: from a tap on a word of a demo phrase to the sheet on
// screen (the page's own 'lookup-open' measure, two frames after the dialog opens) and to its entries
// shown (the answer of GET lookup drawn), in Chromium at 375 px with touch and at 1280 px with a mouse
// (docs/practice.md, "Word lookups"; the target is 100 ms to the sheet).
// Run by `BENCH_ONLY=dictionaries node scripts/bench.mjs`, on a server with FreeDict German-English.

const BOOK = 'der-leuchtturmwarter';
export const SHEET_LIMIT_MS = 100;
/** A lookup still not drawn after this long is a failure, never a missing sample. */
const FILL_LIMIT_MS = 5000;

const SCREENS = {
  phone: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  laptop: { viewport: { width: 1280, height: 800 } },
};

/** The middle of each word (letters only) of phrase `position`, scrolled to the middle of the screen. */
const wordPoints = (page, position) =>
  page.locator(`li#p-${position} .phrase`).evaluate((button) => {
    button.scrollIntoView({ block: 'center' });
    const points = [];
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\p{L}{3,}/gu)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const box = range.getBoundingClientRect();
        points.push({ word: match[0], x: box.x + box.width / 2, y: box.y + box.height / 2 });
      }
    }
    return points;
  });

/** One tap: the times to the sheet and to its filled content, from the click's own time stamp. */
async function tapWord(page, point, touch) {
  await page.evaluate(() => performance.clearMeasures('lookup-open'));
  if (touch) await page.touchscreen.tap(point.x, point.y);
  else await page.mouse.click(point.x, point.y);
  const times = await page
    .waitForFunction(
      () => {
        const open = performance.getEntriesByName('lookup-open').at(-1);
        const content = document.querySelector('dialog[open] .lookup-content');
        if (!open || !content || content.hasAttribute('aria-busy')) return false;
        return [open.duration, performance.now() - open.startTime];
      },
      null,
      { timeout: FILL_LIMIT_MS, polling: 2 },
    )
    .then((handle) => handle.jsonValue())
    .catch(() => null);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('dialog[open]'));
  return times && { sheet: times[0], filled: times[1] };
}

/**
 * `runs` fresh pages per screen (an empty HTTP cache; the page left to settle, as a reader does before
 * the first tap), each tapping up to `perPage` words of phrases 1 to 3: the first tap of each page
 * apart from the later ones.
 */
export async function measureLookupTaps(browser, base, { runs = 5, perPage = 8 } = {}) {
  const result = {};
  for (const [name, options] of Object.entries(SCREENS)) {
    const first = [];
    const later = [];
    let failures = 0;
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      await page.goto(`${base}/read/${BOOK}/1`, { waitUntil: 'networkidle' });
      await page.locator('reader-app.ready').waitFor({ state: 'attached' });
      let taps = 0;
      for (let position = 1; position <= 3 && taps < perPage; position++) {
        for (const point of await wordPoints(page, position)) {
          if (taps >= perPage) break;
          const times = await tapWord(page, point, name === 'phone');
          if (!times) failures++;
          else (taps === 0 ? first : later).push(times);
          taps++;
        }
      }
      await context.close();
    }
    result[name] = { first, later, failures };
  }
  return result;
}

const p = (list, q) => {
  if (!list.length) return NaN;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)];
};

/** The bench's rows: per screen, first taps and later taps, to the sheet and to the entries. */
export function lookupTapMarkdown(result) {
  const f = (n) => `${Math.round(n)} ms`;
  const rows = [];
  for (const [name, { first, later, failures }] of Object.entries(result)) {
    const all = [...first, ...later];
    const sheets = all.map((t) => t.sheet);
    const worst = Math.max(...sheets);
    rows.push(
      `| Tap on a word to the lookup on screen, ${name} (${all.length} taps on ${first.length} fresh pages${failures ? `, ${failures} never drawn` : ''}) | ` +
        `first tap median ${f(
          p(
            first.map((t) => t.sheet),
            50,
          ),
        )}, later taps median ${f(
          p(
            later.map((t) => t.sheet),
            50,
          ),
        )}, ` +
        `p95 ${f(p(sheets, 95))}, worst ${f(worst)}; entries drawn: median ${f(
          p(
            all.map((t) => t.filled),
            50,
          ),
        )}, ` +
        `p95 ${f(
          p(
            all.map((t) => t.filled),
            95,
          ),
        )} | ≤ ${SHEET_LIMIT_MS} ms to the sheet | ` +
        `${!failures && p(sheets, 95) <= SHEET_LIMIT_MS ? 'met' : '**missed**'} |`,
    );
  }
  return rows;
}
