// Offline use (docs/offline.md), in Chromium with the service worker: downloading a 300-phrase chapter
// (its time, the page's JS heap, and a download cut midway and started again), the player on downloaded
// chapters with the connection off, the JavaScript the feature adds to the reader page, and the service
// worker's own size and precache.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import {
  adminHeaders,
  commitImport,
  ffmpeg,
  newBookChapter,
  previewImport,
  zipFile,
} from './import-timing.mjs';
import { max, median, playAllGaps, RECORD_AUDIO, tapEachPhrase } from './player-timing.mjs';
import { measureOfflineJs, measureServiceWorker } from './offline-size.mjs';

const PHRASES = 300;
/** 5.6 s at a constant 128 kbit/s: about 90 KB a clip, 27 MB for the chapter. */
const CLIP_SECONDS = 5.6;
const CLIP_BITRATE = '128k';
/** Distinct tones, used in turn (each phrase still gets a file of its own on the server). */
const TONES = 10;
/** The download is cut once this share of the clips is on the device. */
const CUT_AT = 1 / 3;
const SAMPLE_MS = 50;
const DOWNLOAD_LIMIT_MS = 180_000;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** A new book whose chapter 1 (the free one) has 300 phrases, each with a clip of ~90 KB. */
async function createChapter(base, storage, work) {
  const tones = Array.from({ length: TONES }, (_, i) => {
    const out = join(work, `tone-${i}.mp3`);
    const tone = `sine=frequency=${220 + 40 * i}:sample_rate=44100:duration=${CLIP_SECONDS}`;
    ffmpeg(['-f', 'lavfi', '-i', tone, '-c:a', 'libmp3lame', '-b:a', CLIP_BITRATE, out]);
    return out;
  });
  const entries = Array.from({ length: PHRASES }, (_, i) => [`clips/${i + 1}.mp3`, tones[i % TONES]]);
  const clipBytes = entries.reduce((sum, [, file]) => sum + statSync(file).size, 0);
  const zipPath = join(work, 'clips.zip');
  await zipFile(entries, zipPath);
  const tsv = ['phrase\tdictionary\taudio']
    .concat(entries.map(([name], i) => `Phrase number ${i + 1}.\tmot — word\t${name.slice(6)}`))
    .join('\n');

  const auth = await adminHeaders(base, storage);
  const { code, chapterId } = await newBookChapter(base, auth, {
    fields: {
      title: 'Offline benchmark',
      minutes: '28',
      description: 'A book of 300 tones, for the offline benchmark.',
    },
    chapter: 'Three hundred tones',
    sampleAudio: tones[0],
  });
  const preview = await previewImport(base, auth, chapterId, tsv, readFileSync(zipPath));
  const added = await commitImport(base, auth, preview);
  if (added !== PHRASES) throw new Error(`the import added ${added} phrases, not ${PHRASES}`);
  return { code, clipBytes };
}

/** Waits until the service worker controls the page (the first one claims the open pages). */
async function controlled(page) {
  await page
    .waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 })
    .catch(() => {
      throw new Error(`the service worker did not take control of ${page.url()} within 30 s`);
    });
}

/**
 * Presses "Download for offline" and waits until the control has left its running state (`data-state`:
 * `kept` when done, `start` again when failed or cut) with its message: the message, and the time from
 * the click's own time stamp to that moment, both taken in the page.
 */
async function download(page, { whileRunning } = {}) {
  await page.evaluate(() => {
    const control = document.querySelector('offline-download');
    const message = control.querySelector('[data-message]');
    window.__downloadEnd = null;
    window.__clickAt = undefined;
    document.addEventListener('click', (event) => (window.__clickAt = event.timeStamp), {
      capture: true,
      once: true,
    });
    let ran = false;
    const observer = new MutationObserver(() => {
      if (window.__clickAt === undefined) return;
      if (control.dataset.state === 'running') ran = true;
      if (!ran || control.dataset.state === 'running' || !message.textContent) return;
      observer.disconnect();
      window.__downloadEnd = { text: message.textContent, ms: performance.now() - window.__clickAt };
    });
    observer.observe(control, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.getByRole('button', { name: 'Download for offline' }).click();
  await whileRunning?.();
  const end = await page.waitForFunction(() => window.__downloadEnd, null, {
    timeout: DOWNLOAD_LIMIT_MS,
    polling: 50,
  });
  return end.jsonValue();
}

/** The clip paths kept in our caches on this device (the page's origin). */
const cachedClips = (page) =>
  page.evaluate(async () => {
    const paths = [];
    for (const name of await caches.keys()) {
      if (!name.startsWith('lingonovel-')) continue;
      for (const request of await (await caches.open(name)).keys()) {
        const path = new URL(request.url).pathname;
        if (path.startsWith('/media/lines/')) paths.push(path);
      }
    }
    return paths;
  });

/** The clip requests that reached the server since byte `from` of its log: path and status. */
async function loggedClips(logFile, from) {
  await sleep(300); // a log line is written once per turn of the server's event loop
  const text = readFileSync(logFile).subarray(from).toString('utf8');
  return [...text.matchAll(/GET (\/media\/lines\/\S+) (\d{3}) /g)].map((m) => ({
    path: m[1],
    status: Number(m[2]),
  }));
}

/** Resident memory of Chromium's renderer processes (the browser launched with `marker`), in bytes. */
function renderers(marker) {
  const processes = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      processes.push({ pid, ppid: String(ppid), cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8') });
    } catch {
      // gone meanwhile
    }
  }
  const ours = new Set(processes.filter((p) => p.cmd.includes(marker)).map((p) => p.pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const p of processes) if (ours.has(p.ppid) && !ours.has(p.pid)) grew = Boolean(ours.add(p.pid));
  }
  return processes.filter((p) => ours.has(p.pid) && p.cmd.includes('--type=renderer')).map((p) => p.pid);
}

function rss(pids) {
  let bytes = 0;
  for (const pid of pids) {
    try {
      bytes += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return bytes;
}

/** Runs `work` while sampling the page's JS heap (CDP) and the renderers' RSS every 50 ms. */
async function sampled(page, marker, work) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize').value;
  const pids = renderers(marker);
  const before = { heap: await heap(), rss: rss(pids) };
  const peak = { ...before, samples: 0 };
  let running = true;
  const sampling = (async () => {
    while (running) {
      peak.heap = Math.max(peak.heap, await heap());
      peak.rss = Math.max(peak.rss, rss(pids));
      peak.samples++;
      await sleep(SAMPLE_MS);
    }
  })();
  try {
    return { result: await work(), before, peak, renderers: pids.length };
  } finally {
    running = false;
    await sampling;
    await cdp.detach();
  }
}

/** The whole download in a fresh browser context, then one cut midway and started again in another. */
async function measureDownload(browser, base, code, logFile, marker) {
  const reader = `${base}/read/${code}/1`;
  const fresh = async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(reader, { waitUntil: 'networkidle' });
    await controlled(page);
    return { context, page };
  };

  const first = await fresh();
  let from = statSync(logFile).size;
  const whole = await sampled(first.page, marker, () => download(first.page));
  if (!whole.result.text.startsWith('Downloaded'))
    throw new Error(`the download did not finish: ${whole.result.text}`);
  const wholeFetched = (await loggedClips(logFile, from)).filter((r) => r.status === 200).length;
  const wholeKept = (await cachedClips(first.page)).length;
  await first.context.close();

  const second = await fresh();
  from = statSync(logFile).size;
  const cut = await download(second.page, {
    whileRunning: async () => {
      const ended = () => second.page.evaluate(() => window.__downloadEnd !== null);
      while ((await cachedClips(second.page)).length < PHRASES * CUT_AT && !(await ended())) await sleep(20);
      await second.context.setOffline(true);
    },
  });
  // Clips whose bytes were arriving at the cut may still be stored: count once nothing changes for 1 s.
  let kept = await cachedClips(second.page);
  for (let still = 0; still < 1000; still += 100) {
    await sleep(100);
    const now = await cachedClips(second.page);
    if (now.length !== kept.length) still = 0;
    kept = now;
  }
  const beforeCut = (await loggedClips(logFile, from)).filter((r) => r.status === 200).length;
  await second.context.setOffline(false);
  from = statSync(logFile).size;
  const resumed = await download(second.page);
  const again = (await loggedClips(logFile, from)).filter((r) => r.status === 200).map((r) => r.path);
  const keptAtCut = new Set(kept);
  const finalKept = new Set(await cachedClips(second.page));
  await second.context.close();
  return {
    ms: whole.result.ms,
    heapBefore: whole.before.heap,
    heapPeak: whole.peak.heap,
    rssGrowth: whole.renderers ? Math.max(0, whole.peak.rss - whole.before.rss) : null,
    samples: whole.peak.samples,
    wholeFetched,
    wholeKept,
    cutMessage: cut.text,
    fetchedBeforeCut: beforeCut,
    keptAtCut: keptAtCut.size,
    missingAtCut: PHRASES - keptAtCut.size,
    fetchedAgain: again.length,
    refetched: again.filter((path) => keptAtCut.has(path)).length,
    resumedMessage: resumed.text,
    resumedMs: resumed.ms,
    finalKept: finalKept.size,
  };
}

/** Tap and play-all timings on the demo books' chapter 1, downloaded, with the connection off. */
async function measureOfflinePlayer(browser, base, codes) {
  const context = await browser.newContext();
  await context.addInitScript(RECORD_AUDIO);
  const page = await context.newPage();
  const failures = [];
  for (const code of codes) {
    await page.goto(`${base}/read/${code}/1`, { waitUntil: 'networkidle' });
    await controlled(page);
    const { text } = await download(page);
    if (!text.startsWith('Downloaded')) failures.push(`${code}: the download ended with "${text}"`);
  }
  await context.setOffline(true);
  const taps = [];
  const gaps = [];
  const tapFailures = [];
  const gapFailures = [];
  for (const code of codes) {
    await page.goto(`${base}/read/${code}/1`, { waitUntil: 'networkidle' });
    // With the connection off, only a copy on the device shows the chapter (else the offline page comes).
    if (!(await page.locator('li[data-audio]').count())) {
      failures.push(`${code}: offline, the reader shows no phrases ("${await page.title()}")`);
      continue;
    }
    const tapped = await tapEachPhrase(page, code);
    taps.push(...tapped.taps);
    tapFailures.push(...tapped.failures);
    const played = await playAllGaps(page, base, code, tapped.count);
    gaps.push(...played.gaps);
    if (played.failure) gapFailures.push(played.failure);
  }
  await context.close();
  return {
    chapters: codes.length,
    taps: taps.length,
    tapMedian: median(taps),
    tapMax: max(taps),
    gaps: gaps.length,
    gapMedian: median(gaps),
    gapMax: max(gaps),
    tapFailures,
    gapFailures,
    failures,
  };
}

/** The cut left clips missing, and the second run fetched exactly those, and finished. */
const resumeOk = (d) =>
  d.missingAtCut > 0 &&
  d.refetched === 0 &&
  d.fetchedAgain === d.missingAtCut &&
  d.finalKept === PHRASES &&
  d.resumedMessage.startsWith('Downloaded');

export async function measureOffline({ chromePath, base, storage, demoCodes }) {
  const work = mkdtempSync(join(tmpdir(), 'lingonovel-bench-offline-'));
  const marker = `--lingonovel-bench-offline=${process.pid}`;
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--autoplay-policy=no-user-gesture-required',
      marker,
    ],
  });
  try {
    const { code, clipBytes } = await createChapter(base, storage, work);
    const downloaded = await measureDownload(browser, base, code, join(storage, 'server.log'), marker);
    const player = await measureOfflinePlayer(browser, base, demoCodes);
    const js = await measureOfflineJs(browser, base, demoCodes[0]);
    const sw = await measureServiceWorker(base);
    // A download that fetches kept clips again, or does not finish, and a tap that never plays, are
    // broken on any machine: failures, never figures.
    const failures = [
      ...player.failures,
      ...player.tapFailures.map((tap) => `offline, a tap never played: ${tap}`),
      ...player.gapFailures.map((chapter) => `offline play all, ${chapter}`),
      ...(resumeOk(downloaded)
        ? []
        : [
            `the resumed download fetched ${downloaded.fetchedAgain} clips (${downloaded.refetched} already kept) for ${downloaded.missingAtCut} missing, and ended with ${downloaded.finalKept} of ${PHRASES} kept: "${downloaded.resumedMessage}"`,
          ]),
    ];
    return { phrases: PHRASES, clipBytes, download: downloaded, player, js, sw, failures };
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
}

const fixed = (n, digits = 1) => Number(n).toFixed(digits);
const mb = (bytes) => `${fixed(bytes / 2 ** 20)} MB`;
const kb = (bytes) => `${fixed(bytes / 1024)} KB`;
const verdict = (ok) => (ok ? 'met' : '**missed**');

/** The section of docs/benchmarks.md. */
export function offlineMarkdown({ phrases, clipBytes, download: d, player: p, js, sw, failures }) {
  const seconds = d.ms / 1000;
  const tapsOk = p.tapMedian <= 150 && p.tapMax <= 150 && p.taps >= 10 && p.tapFailures.length === 0;
  const chunk = (c) => `\`${c.file}\` ${kb(c.bytes)}`;
  return [
    '## Offline (Chromium with the service worker, on loopback)',
    '',
    '| measure | figure | target | |',
    '| --- | ---: | --- | --- |',
    `| download a ${phrases}-phrase chapter (${mb(clipBytes)} of clips, ${d.wholeFetched} clip requests reached the server, ${d.wholeKept} clips kept): the click to "Downloaded" | ${fixed(seconds, 2)} s (${fixed(clipBytes / 2 ** 20 / seconds)} MB/s) | informational | |`,
    `| the page's JS heap during that download (CDP \`JSHeapUsedSize\`, ${d.samples} samples every 50 ms) | peak ${mb(d.heapPeak)} (${mb(d.heapBefore)} before) | informational | |`,
    `| Chromium's renderer processes' RSS during that download (the clips' bytes live outside the JS heap) | ${d.rssGrowth === null ? 'not measured: no renderer process found' : `+${mb(d.rssGrowth)} at the peak`} | informational | |`,
    `| resume: another download cut (\`setOffline\`) once ${Math.round(phrases / 3)} clips were kept, then started again online | ${d.keptAtCut} kept at the cut, ${d.missingAtCut} missing; the second run fetched ${d.fetchedAgain}, ${d.refetched} of them already kept | clips fetched = clips missing, none twice | ${verdict(resumeOk(d))} |`,
    `| offline: a tap on a phrase to its clip's \`playing\` (${p.taps} taps on ${p.chapters} downloaded demo chapters) | median ${fixed(p.tapMedian)} ms, max ${fixed(p.tapMax)} ms | ≤ 150 ms (median and max), every tap plays | ${verdict(tapsOk)} |`,
    `| offline: play all, one clip's \`ended\` to the next clip's \`playing\` (${p.gaps} changes) | median ${fixed(p.gapMedian)} ms, max ${fixed(p.gapMax)} ms | median ≤ 60 ms, every change measured | ${verdict(p.gapMedian <= 60 && p.gapFailures.length === 0)} |`,
    `| JavaScript the offline feature adds to \`/read/{code}/1\` (gzipped: its entry scripts and every chunk they import, shared ones in full) | ${kb(js.offline)} of the page's ${kb(js.total)} | ≤ 15 KB | ${verdict(js.offline <= 15 * 1024)} |`,
    `| of which chunks only the offline feature loads (the page without it: ${kb(js.total - js.only)}) | ${kb(js.only)} | informational | |`,
    `| the service worker, \`/sw.js\` | ${kb(sw.raw)}, ${kb(sw.gz)} gzipped | informational | |`,
    `| its precache (kept at install) | ${sw.precacheEntries} entries, ${kb(sw.fileBytes + sw.pageBytes)} (${kb(sw.fileBytes)} of built files, as \`build-sw.mjs\` sums them, and the offline page) | informational | |`,
    '',
    `The offline feature's chunks on the reader page: ${js.chunks
      .filter((c) => !c.shared)
      .map(chunk)
      .join(', ')}; shared with the rest of the page: ${
      js.chunks
        .filter((c) => c.shared)
        .map(chunk)
        .join(', ') || 'none'
    }. The cut download said "${d.cutMessage}"; ${d.fetchedBeforeCut} clip requests had reached the server before it. The resumed run took ${fixed(d.resumedMs / 1000, 2)} s.`,
    '',
    ...(failures.length ? [`Failures: ${failures.join('; ')}.`, ''] : []),
  ];
}
