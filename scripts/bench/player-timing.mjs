// How the reader's player feels: the silence between one phrase's clip and the next during play all, and
// the wait from a tap on a phrase to its sound. Measured in Chromium on the demo's real clips.

/** Records every 'ended' and 'playing' of every <audio> the page makes, with its time. */
const RECORD_AUDIO = () => {
  const Original = window.Audio;
  window.__audioEvents = [];
  window.Audio = function (...args) {
    const audio = new Original(...args);
    for (const type of ['ended', 'playing'])
      audio.addEventListener(type, () =>
        window.__audioEvents.push({ type, at: performance.now(), src: audio.src }),
      );
    return audio;
  };
};

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

export async function measurePlayer(browser, base, bookCodes) {
  const context = await browser.newContext();
  await context.addInitScript(RECORD_AUDIO);
  const gaps = [];
  const taps = [];
  for (const code of bookCodes) {
    const page = await context.newPage();
    await page.goto(`${base}/read/${code}/1`, { waitUntil: 'networkidle' });
    // Tap each phrase in turn: the time from the click to its clip's 'playing'.
    const count = await page.locator('li[data-audio]').count();
    for (let i = 1; i <= count; i++) {
      const tapped = await page.evaluate(async (n) => {
        const before = window.__audioEvents.length;
        const started = performance.now();
        document.querySelector(`li#p-${n} .phrase`).click();
        while (!window.__audioEvents.slice(before).some((e) => e.type === 'playing')) {
          await new Promise((resolve) => setTimeout(resolve, 2));
          if (performance.now() - started > 5000) return null;
        }
        return window.__audioEvents.slice(before).find((e) => e.type === 'playing').at - started;
      }, i);
      if (tapped !== null) taps.push(tapped);
    }
    // Play all from the start at full speed, until the chapter's last clip plays (a visitor's page then
    // moves on to the locked chapter 2, so the run stops there).
    await page.getByLabel('Speed').selectOption('1.5');
    await page.locator('li#p-1 .phrase').click();
    await page.evaluate(() => (window.__audioEvents = []));
    await page.getByRole('button', { name: 'Play all' }).click();
    await page.waitForFunction(
      (n) => window.__audioEvents.filter((e) => e.type === 'playing').length >= n,
      count,
      {
        timeout: 60_000,
      },
    );
    const events = await page.evaluate(() => window.__audioEvents);
    await page.getByRole('button', { name: 'Play all' }).click();
    for (let i = 0; i < events.length; i++) {
      if (events[i].type !== 'ended') continue;
      const next = events.slice(i + 1).find((e) => e.type === 'playing');
      if (next) gaps.push(next.at - events[i].at);
    }
    await page.close();
  }
  await context.close();
  return {
    gaps: gaps.length,
    gapMedian: median(gaps),
    gapMax: Math.max(...gaps),
    taps: taps.length,
    tapMedian: median(taps),
    tapMax: Math.max(...taps),
  };
}
