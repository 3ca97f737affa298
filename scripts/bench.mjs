// `npm run bench`: measures the built server on generated data and writes docs/benchmarks.md.
// Timings are compared as ratios taken in the same run, because absolute figures move with the machine.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { chromium } from '@playwright/test';
import { findChromium, INSTALL_HINT } from './find-chromium.mjs';
import { measureRecoveryTiming } from './bench/recovery-timing.mjs';
import { measurePlayer, TAP_LIMIT_MS } from './bench/player-timing.mjs';
import { measureImport } from './bench/import-timing.mjs';

const root = new URL('..', import.meta.url).pathname;
const BOOKS = 1000;
const PORT = Number(process.env.BENCH_PORT ?? 4455);
const base = `http://127.0.0.1:${PORT}`;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const LIGHTHOUSE_RUNS = 5;

const chromePath = findChromium();
if (!chromePath) {
  console.error(INSTALL_HINT);
  process.exit(1);
}

/**
 * Starts the built server with its log going to a file: read through a pipe, a log line per request
 * would cost this process (which also runs the load generator) more than the server's work.
 */
async function startServer(storage, args = []) {
  const log = openSync(join(storage, 'server.log'), 'a');
  const child = spawn(process.execPath, [join(root, 'dist/app/server/main.js'), ...args], {
    env: { ...process.env, STORAGE_DIR: storage, PORT: String(PORT), HOST: '127.0.0.1', PUBLIC_URL: base },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  let exited = null;
  child.on('exit', (code) => (exited = code));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (exited !== null)
      throw new Error(`server exited with ${exited}:\n${readFileSync(join(storage, 'server.log'), 'utf8')}`);
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill();
  throw new Error('server did not start within 2 minutes');
}

const stop = (child) => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')));

/** The demo catalogue, then copies of its books (sharing their media) up to 1,000. */
async function prepareData(storage) {
  await stop(await startServer(storage, ['--demo']));
  const db = new Database(join(storage, 'lingonovel.sqlite'));
  const demo = db.prepare('SELECT * FROM books').all();
  const insert =
    db.prepare(`INSERT INTO books (book_code, title, author, narrated_by, description, difficulty, hours,
    minutes, cover_path, sample_audio_path, sample_audio_ms, sample_text) VALUES (@book_code, @title, @author,
    @narrated_by, @description, @difficulty, @hours, @minutes, @cover_path, @sample_audio_path, @sample_audio_ms, @sample_text)`);
  db.transaction(() => {
    for (let n = demo.length; n < BOOKS; n++) {
      const source = demo[n % demo.length];
      insert.run({ ...source, book_code: `${source.book_code}-copy-${n}`, title: `${source.title} ${n}` });
    }
  })();
  db.close();
}

// Browsers ask for compressed answers; so does the benchmark, for every path alike.
const HEADERS = { 'accept-encoding': 'br, gzip' };

async function load(url) {
  await autocannon({ url, connections: 10, duration: 2, headers: HEADERS }); // warm-up: the page cache and the JIT
  const result = await autocannon({ url, connections: 10, duration: DURATION, headers: HEADERS });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** Gzipped JavaScript a page makes the browser run: every script file it loads plus inline scripts. */
async function javascriptBytes(browser, path) {
  const page = await browser.newPage();
  const scripts = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push(response.body().catch(() => Buffer.alloc(0)));
  });
  await page.goto(base + path, { waitUntil: 'networkidle' });
  const inline = await page.$$eval('script:not([src]):not([type="application/ld+json"])', (nodes) =>
    nodes.map((n) => n.textContent ?? ''),
  );
  const bodies = [...(await Promise.all(scripts)), ...inline.map((text) => Buffer.from(text))];
  await page.close();
  return bodies.reduce((sum, body) => sum + (body.length ? gzipSync(body, { level: 9 }).length : 0), 0);
}

async function lighthouseMedian(url) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const runs = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
    const chrome = await chromeLauncher.launch({
      chromePath,
      chromeFlags: [
        '--headless=new',
        '--no-sandbox',
        '--disable-dev-shm-usage',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
      const { categories, audits } = result.lhr;
      runs.push({
        performance: categories.performance.score,
        accessibility: categories.accessibility.score,
        seo: categories.seo.score,
        bestPractices: categories['best-practices'].score,
        lcp: audits['largest-contentful-paint'].numericValue,
        cls: audits['cumulative-layout-shift'].numericValue,
        tbt: audits['total-blocking-time'].numericValue,
      });
    } finally {
      await chrome.kill();
    }
  }
  const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  return Object.fromEntries(Object.keys(runs[0]).map((key) => [key, median(key)]));
}

const fixed = (n, digits = 0) => Number(n).toFixed(digits);
const verdict = (ok) => (ok ? 'met' : '**missed**');

async function main() {
  const storage = mkdtempSync(join(tmpdir(), 'lingonovel-bench-'));
  let server;
  try {
    console.log(`Preparing ${BOOKS} books…`);
    await prepareData(storage);
    server = await startServer(storage);
    const code = (await (await fetch(`${base}/api/v1/guest/list-book`)).json()).data[0].book_code;

    console.log('Load tests (autocannon, 10 connections)…');
    const rows = {
      static: await load(`${base}/favicon.svg`),
      detail: await load(`${base}/book-detail/${code}`),
      listing: await load(`${base}/lingostory`),
      reader: await load(`${base}/read/${code}/1`),
      health: await load(`${base}/api/v1/health`),
      guestList: await load(`${base}/api/v1/guest/list-book`),
    };

    console.log('Password recovery timing…');
    const recovery = await measureRecoveryTiming(base);
    const recoveryRatio = recovery.known / recovery.unknown;

    console.log('JavaScript per page…');
    const browser = await chromium.launch({
      executablePath: chromePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    });
    const jsPages = [
      '/',
      '/lingostory',
      '/lingonovel-story',
      '/ling',
      `/book-detail/${code}`,
      `/read/${code}/1`,
      '/about',
    ];
    const js = {};
    for (const path of jsPages) js[path] = await javascriptBytes(browser, path);
    await browser.close();

    console.log('Player timings in Chromium…');
    const playerBrowser = await chromium.launch({
      executablePath: chromePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
    const demoCodes = (await (await fetch(`${base}/api/v1/guest/list-book`)).json()).data
      .map((book) => book.book_code)
      .filter((bookCode) => !bookCode.includes('-copy-'));
    const player = await measurePlayer(playerBrowser, base, demoCodes);
    await playerBrowser.close();

    console.log('Chapter import and recording split…');
    const imported = await measureImport(base, storage, server.pid);

    console.log(`Lighthouse (median of ${LIGHTHOUSE_RUNS})…`);
    const lighthouse = {
      '/lingostory': await lighthouseMedian(`${base}/lingostory`),
      [`/book-detail/${code}`]: await lighthouseMedian(`${base}/book-detail/${code}`),
      [`/read/${code}/1`]: await lighthouseMedian(`${base}/read/${code}/1`),
    };

    const ratio = (row) => row.rps / rows.static.rps;
    const lines = [
      '# Benchmarks',
      '',
      `Run of \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${fixed(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}, Node ${process.version}.`,
      `The built server ran on a temporary STORAGE_DIR holding ${BOOKS} books (the demo catalogue and copies of it).`,
      'Timings are compared as ratios within this run: the machine is shared, so absolute figures move between runs.',
      '',
      `## Throughput (autocannon, 10 connections, \`Accept-Encoding: br, gzip\`, ${DURATION} s each after a 2 s warm-up)`,
      '',
      '| path | requests/s | p99 latency | ratio | target | |',
      '| --- | ---: | ---: | ---: | --- | --- |',
      `| static file \`/favicon.svg\` | ${fixed(rows.static.rps)} | ${rows.static.p99} ms | 1.00 | baseline | |`,
      `| \`/book-detail/{code}\` | ${fixed(rows.detail.rps)} | ${rows.detail.p99} ms | ${fixed(ratio(rows.detail), 2)}× static | ≥ 0.9×, p99 < 30 ms | ${verdict(ratio(rows.detail) >= 0.9 && rows.detail.p99 < 30)} |`,
      `| \`/lingostory\` | ${fixed(rows.listing.rps)} | ${rows.listing.p99} ms | ${fixed(ratio(rows.listing), 2)}× static | ≥ 0.9×, p99 < 30 ms | ${verdict(ratio(rows.listing) >= 0.9 && rows.listing.p99 < 30)} |`,
      `| \`/read/{code}/1\` | ${fixed(rows.reader.rps)} | ${rows.reader.p99} ms | ${fixed(ratio(rows.reader), 2)}× static | ≥ 1.0× | ${verdict(ratio(rows.reader) >= 1)} |`,
      `| \`/api/v1/health\` | ${fixed(rows.health.rps)} | ${rows.health.p99} ms | 1.00 | baseline for the API | |`,
      `| \`/api/v1/guest/list-book\` | ${fixed(rows.guestList.rps)} | ${rows.guestList.p99} ms | ${fixed(rows.guestList.rps / rows.health.rps, 2)}× health | ≥ 0.5× | ${verdict(rows.guestList.rps / rows.health.rps >= 0.5)} |`,
      '',
      `Errors or non-2xx answers during the runs: ${Object.values(rows).reduce((sum, row) => sum + row.errors, 0)}.`,
      '',
      `## Password recovery: known against unknown addresses (medians of ${recovery.samples} each, interleaved)`,
      '',
      '| address | median | ratio | target | |',
      '| --- | ---: | ---: | --- | --- |',
      `| unknown | ${fixed(recovery.unknown, 2)} ms | 1.00 | baseline | |`,
      `| known | ${fixed(recovery.known, 2)} ms | ${fixed(recoveryRatio, 2)}× unknown | within 20% (0.8× to 1.2×) | ${verdict(recoveryRatio >= 0.8 && recoveryRatio <= 1.2)} |`,
      '',
      '## JavaScript shipped per page (gzipped, scripts the page loads plus inline scripts)',
      '',
      '| page | JS (gzip) | budget | |',
      '| --- | ---: | --- | --- |',
      ...jsPages.map((path) => {
        const budget = path.startsWith('/book-detail') ? 10_240 : path.startsWith('/read/') ? 81_920 : null;
        const label = path.startsWith('/read/') ? '≤ 80 KB' : '≤ 10 KB, no framework';
        return `| \`${path}\` | ${fixed(js[path] / 1024, 1)} KB | ${budget ? label : '—'} | ${budget ? verdict(js[path] <= budget) : ''} |`;
      }),
      '',
      `## Lighthouse 12 (mobile preset, Debian's Chromium, median of ${LIGHTHOUSE_RUNS} runs)`,
      '',
      '| page | performance | accessibility | SEO | best practices | LCP | CLS | TBT | |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...Object.entries(lighthouse).map(([path, m]) => {
        const ok =
          m.performance >= (path.startsWith('/read/') ? 0.95 : 0.98) &&
          m.accessibility === 1 &&
          m.seo === 1 &&
          m.bestPractices === 1 &&
          m.cls === 0;
        return `| \`${path}\` | ${m.performance} | ${m.accessibility} | ${m.seo} | ${m.bestPractices} | ${fixed(m.lcp)} ms | ${fixed(m.cls, 3)} | ${fixed(m.tbt)} ms | ${verdict(ok)} |`;
      }),
      '',
      'Targets: performance ≥ 0.98 (the reader: ≥ 0.95); accessibility, SEO and best practices 1.0; CLS 0.',
      '',
      `## The reader's player in Chromium (demo clips, ${demoCodes.length} books' chapter 1)`,
      '',
      '| measure | samples | median | max | target | |',
      '| --- | ---: | ---: | ---: | --- | --- |',
      `| play all: one clip's \`ended\` to the next clip's \`playing\` | ${player.gaps} (${player.gapFailures.length} chapters with changes unmeasured) | ${fixed(player.gapMedian, 1)} ms | ${fixed(player.gapMax, 1)} ms | median ≤ 60 ms, max ≤ 150 ms, every change measured | ${verdict(player.gapMedian <= 60 && player.gapMax <= 150 && player.gapFailures.length === 0)} |`,
      `| the first tap on a fresh page (Play all, an empty cache) to its clip's \`playing\` | ${player.firstTaps} of ${player.firstTaps + player.firstTapFailures.length} pages (${player.firstTapFailures.length} never played) | ${fixed(player.firstTapMedian, 1)} ms | ${fixed(player.firstTapMax, 1)} ms | ≤ 150 ms, every tap plays | ${verdict(player.firstTapMax <= 150 && player.firstTapFailures.length === 0)} |`,
      `| a tap on a phrase to its clip's \`playing\` | ${player.taps} of ${player.taps + player.tapFailures.length} taps (${player.tapFailures.length} never played) | ${fixed(player.tapMedian, 1)} ms | ${fixed(player.tapMax, 1)} ms | ≤ 150 ms, every tap plays | ${verdict(player.tapMax <= 150 && player.tapFailures.length === 0)} |`,
      '',
      ...(player.firstTapFailures.length
        ? [
            `First taps that never played (no \`playing\` within ${TAP_LIMIT_MS / 1000} s): ${player.firstTapFailures.join('; ')}.`,
            '',
          ]
        : []),
      ...(player.tapFailures.length
        ? [
            `Taps that never played (no \`playing\` within ${TAP_LIMIT_MS / 1000} s): ${player.tapFailures.join('; ')}.`,
            '',
          ]
        : []),
      ...(player.gapFailures.length
        ? [`Play all reached a clip without the previous one ending: ${player.gapFailures.join('; ')}.`, '']
        : []),
      `## Publishing a chapter (${imported.phrases} phrases, ${imported.phrases} clips, a ${fixed(imported.zipBytes / 2 ** 20, 1)} MB zip, through the API)`,
      '',
      '| step | time | server RSS growth (peak) | target | |',
      '| --- | ---: | ---: | --- | --- |',
      `| preview (upload, extract, check and measure every clip) | ${fixed(imported.previewMs / 1000, 2)} s | ${fixed(imported.previewGrowth / 2 ** 20, 1)} MB | ≤ 10 s, ≤ 100 MB | ${verdict(imported.previewMs <= 10_000 && imported.previewGrowth <= 100 * 2 ** 20)} |`,
      `| commit (${imported.added} phrases stored and added in one transaction) | ${fixed(imported.commitMs / 1000, 2)} s | ${fixed(imported.commitGrowth / 2 ** 20, 1)} MB | ≤ 10 s, ≤ 100 MB | ${verdict(imported.commitMs <= 10_000 && imported.commitGrowth <= 100 * 2 ** 20)} |`,
      `| split a ${fixed(imported.recordingSeconds / 60, 1)}-minute recording into ${imported.splitClips} clips (ffmpeg: pauses ${fixed(imported.detectMs / 1000, 1)} s, one cutting run ${fixed(imported.cutMs / 1000, 1)} s) | ${fixed(imported.splitMs / 1000, 2)} s | (ffmpeg's own process) | | |`,
      '',
      'The chapter API answers a 300-phrase chapter with one query per table (4 queries: the caller, the book, its chapters, the phrases; 5 for a locked chapter, with the plan), as many as for a 2-phrase chapter: asserted in `server/test/reading.e2e-spec.ts`.',
      '',
    ];
    const notesFile = join(root, 'docs', 'benchmarks-notes.md');
    let notes = '';
    try {
      notes = readFileSync(notesFile, 'utf8');
    } catch {
      notes = '';
    }
    writeFileSync(join(root, 'docs', 'benchmarks.md'), lines.join('\n') + (notes ? `\n${notes}` : ''));
    console.log(lines.join('\n'));
    // Timings move with the machine's load, so a missed target is reported, not fatal; a tap that never
    // plays, or a clip that never ends, is a broken player on any machine, and fails the run.
    const playerFailures = [
      ...player.firstTapFailures.map((code) => `the first tap never played: ${code}`),
      ...player.tapFailures.map((tap) => `a tap never played: ${tap}`),
      ...player.gapFailures.map((chapter) => `play all, ${chapter}`),
    ];
    if (playerFailures.length) {
      console.error(
        `\n✖ The player failed ${playerFailures.length} time(s):\n  ${playerFailures.join('\n  ')}`,
      );
      process.exitCode = 1;
    }
  } finally {
    if (server) await stop(server);
    rmSync(storage, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
