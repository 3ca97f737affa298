// How the reader's player feels: the silence between one phrase's clip and the next during play all, and
// the wait from a tap on a phrase to its sound. Measured in Chromium on the demo's real clips.

/** Records every 'ended' and 'playing' of every <audio> the page makes, with its time. */
export const RECORD_AUDIO = () => {
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

export const median = (list) =>
  list.length ? [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] : NaN;
export const max = (list) => (list.length ? Math.max(...list) : NaN);
/** A tap still silent after this long is a failure (no listener waits so long), never a missing sample. */
export const TAP_LIMIT_MS = 5000;

/**
 * The first tap a learner makes on a fresh page (an empty HTTP cache, nothing played yet): Play all, once
 * the page has settled, to its clip's 'playing'. The page loads that clip ahead, so it should sound as
 * soon as later taps do.
 */
async function measureFirstTaps(browser, base, bookCodes) {
  const firstTaps = [];
  const failures = [];
  for (const code of bookCodes) {
    const context = await browser.newContext();
    await context.addInitScript(RECORD_AUDIO);
    const page = await context.newPage();
    await page.goto(`${base}/read/${code}/1`, { waitUntil: 'networkidle' });
    // A real click (a user's gesture), timed from the event's own time stamp to the clip's 'playing'.
    await page.evaluate(() =>
      document.addEventListener('click', (event) => (window.__clickAt = event.timeStamp), { capture: true }),
    );
    await page.getByRole('button', { name: 'Play all' }).click();
    const tapped = await page
      .waitForFunction(
        () => {
          const played = window.__audioEvents.find((e) => e.type === 'playing' && e.at >= window.__clickAt);
          // In an array: a wait of 0 ms is an answer, not a falsy "keep polling".
          return played ? [played.at - window.__clickAt] : false;
        },
        null,
        { timeout: TAP_LIMIT_MS, polling: 2 },
      )
      .then(async (handle) => (await handle.jsonValue())[0])
      .catch(() => null);
    if (tapped === null) failures.push(code);
    else firstTaps.push(tapped);
    await context.close();
  }
  return { firstTaps, failures };
}

/**
 * Taps each phrase of the reader page open in `page`, in turn: the time from the click to its clip's
 * 'playing'. Answers the phrases' count, the times, and the taps that never played (by book and phrase).
 */
export async function tapEachPhrase(page, code) {
  const taps = [];
  const failures = [];
  const count = await page.locator('li[data-audio]').count();
  for (let i = 1; i <= count; i++) {
    const tapped = await page.evaluate(
      async ({ n, limit }) => {
        const before = window.__audioEvents.length;
        const started = performance.now();
        document.querySelector(`li#p-${n} .phrase`).click();
        while (!window.__audioEvents.slice(before).some((e) => e.type === 'playing')) {
          await new Promise((resolve) => setTimeout(resolve, 2));
          if (performance.now() - started > limit) return null;
        }
        return window.__audioEvents.slice(before).find((e) => e.type === 'playing').at - started;
      },
      { n: i, limit: TAP_LIMIT_MS },
    );
    if (tapped === null) failures.push(`${code}, phrase ${i}`);
    else taps.push(tapped);
  }
  return { count, taps, failures };
}

/**
 * Play all on the chapter of `count` phrases, from the start at 1.5× speed, until its last clip plays:
 * every gap from one clip's 'ended' to the next clip's 'playing', and a failure when a change went
 * unmeasured (a clip that never reached its end), or null.
 */
export async function playAllGaps(page, base, code, count) {
  // (A visitor's page then moves on to the locked chapter 2, so the run stops at the chapter's last clip.)
  // The page opens on phrase 1 (#p-1: the place the taps saved is not resumed), and the speed is in the
  // player's settings sheet. (From another page: a change of the hash alone would keep this page, its last
  // tap still sounding.)
  await page.goto('about:blank');
  await page.goto(`${base}/read/${code}/1#p-1`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: /^Player settings/ }).click();
  await page.getByLabel('Speed').selectOption('1.5');
  await page.keyboard.press('Escape');
  await page.evaluate(() => (window.__audioEvents = []));
  await page.getByRole('button', { name: 'Play all' }).click();
  // Every clip of the chapter has played once (a clip that stalls and resumes says 'playing' again).
  await page.waitForFunction(
    (n) => new Set(window.__audioEvents.filter((e) => e.type === 'playing').map((e) => e.src)).size >= n,
    count,
    { timeout: 60_000 },
  );
  const events = await page.evaluate(() => window.__audioEvents);
  await page.getByRole('button', { name: 'Play all' }).click();
  const gaps = [];
  for (let i = 0; i < events.length; i++) {
    if (events[i].type !== 'ended') continue;
    const next = events.slice(i + 1).find((e) => e.type === 'playing');
    if (next) gaps.push(next.at - events[i].at);
  }
  // A clip that never reached its end (an error, a skip) leaves a change unmeasured: a failure too.
  const failure = gaps.length < count - 1 ? `${code}: ${gaps.length} of ${count - 1} clip changes` : null;
  return { gaps, failure };
}

export async function measurePlayer(browser, base, bookCodes) {
  const first = await measureFirstTaps(browser, base, bookCodes);
  const context = await browser.newContext();
  await context.addInitScript(RECORD_AUDIO);
  const gaps = [];
  const taps = [];
  /** Taps that never played, by book and phrase: a broken player, which no timing may hide. */
  const tapFailures = [];
  const gapFailures = [];
  for (const code of bookCodes) {
    const page = await context.newPage();
    await page.goto(`${base}/read/${code}/1`, { waitUntil: 'networkidle' });
    const tapped = await tapEachPhrase(page, code);
    taps.push(...tapped.taps);
    tapFailures.push(...tapped.failures);
    const played = await playAllGaps(page, base, code, tapped.count);
    gaps.push(...played.gaps);
    if (played.failure) gapFailures.push(played.failure);
    await page.close();
  }
  await context.close();
  return {
    firstTaps: first.firstTaps.length,
    firstTapMedian: median(first.firstTaps),
    firstTapMax: max(first.firstTaps),
    firstTapFailures: first.failures,
    gaps: gaps.length,
    gapMedian: median(gaps),
    gapMax: max(gaps),
    taps: taps.length,
    tapMedian: median(taps),
    tapMax: max(taps),
    tapFailures,
    gapFailures,
  };
}
