// `npm run bench`: measures the built server on generated data and writes docs/benchmarks.md.
// Timings are compared as ratios taken in the same run, because absolute figures move with the machine.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { chromium } from '@playwright/test';
import { findChromium, INSTALL_HINT } from './find-chromium.mjs';
import { measureRecoveryTiming } from './bench/recovery-timing.mjs';
import { measurePlayer, TAP_LIMIT_MS } from './bench/player-timing.mjs';
import { measureImport } from './bench/import-timing.mjs';
import { seedCopies, copyToPostgres, LANGUAGES } from './bench/catalogue-data.mjs';
import { measureBrowse, QUERIES } from './bench/browse-timing.mjs';
import { explainBrowse, plansMarkdown } from './bench/browse-plans.mjs';
import { measureSitemap } from './bench/sitemap-memory.mjs';
import { measureOffline, offlineMarkdown } from './bench/offline-timing.mjs';
import { measurePracticeJs } from './bench/practice-size.mjs';
import { measureFormats } from './bench/formats-timing.mjs';
import { formatsMarkdown, writeFormatsSection, writeSection } from './bench/formats-markdown.mjs';
import {
  DICTATION_HEADING,
  dictationMarkdown,
  measureDictationLoad,
  reportDictationFailures,
} from './bench/dictation-load.mjs';
import { measureAlignment } from './bench/alignment-timing.mjs';
import { ALIGNMENT_HEADING, alignmentMarkdown } from './bench/alignment-markdown.mjs';
import { dictionaryImportMarkdown, measureDictionaryImport } from './bench/dictionary-import-timing.mjs';
import { lookupMarkdown, measureLookup } from './bench/lookup-timing.mjs';
import { lookupTapMarkdown, measureLookupTaps } from './bench/lookup-tap-timing.mjs';
import {
  addVocabulary,
  BOOK_VOCABULARY,
  coverageMarkdown,
  holdComputation,
  KNOWN_WORDS,
  markingMarkdown,
  measureCoverage,
  measureMarking,
  seedKnownWords,
  timeComputation,
  signIn,
  signUpMember,
} from './bench/coverage-timing.mjs';
import { adminHeaders } from './bench/import-timing.mjs';
import { startPostgres } from './postgres.mjs';

const root = new URL('..', import.meta.url).pathname;
const BOOKS = Number(process.env.BENCH_BOOKS ?? 10_000);
const PORT = Number(process.env.BENCH_PORT ?? 4455);
const base = `http://127.0.0.1:${PORT}`;
/** The bare node:http server of the ceiling row. */
const BARE_PORT = PORT + 1;
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const WARM_UP = 1;
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** The language and level of the filtered pages measured (the copies have every pair). */
const LANG = 'es';
const CEFR = 'A2';
/**
 * `BENCH_ONLY=offline` (or `practice`) measures that section alone, on the demo catalogue, and only
 * prints it; `BENCH_ONLY=formats` (or `dictation`, `alignment`, `dictionaries`) also writes its section
 * into docs/benchmarks.md, keeping the others.
 */
const ONLY = process.env.BENCH_ONLY ?? '';
const SECTIONS = ['offline', 'practice', 'formats', 'dictation', 'alignment', 'dictionaries', 'coverage'];
if (ONLY && !SECTIONS.includes(ONLY)) {
  console.error(`BENCH_ONLY must be one of ${SECTIONS.join(', ')} or unset, not "${ONLY}".`);
  process.exit(1);
}

const chromePath = findChromium();
if (!chromePath) {
  console.error(INSTALL_HINT);
  process.exit(1);
}

/**
 * Starts the built server with its log going to a file: read through a pipe, a log line per request
 * would cost this process (which also runs the load generator) more than the server's work.
 */
async function startServer(storage, args = [], env = {}) {
  const log = openSync(join(storage, 'server.log'), 'a');
  const child = spawn(process.execPath, [join(root, 'dist/app/server/main.js'), ...args], {
    env: {
      ...process.env,
      STORAGE_DIR: storage,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      ...env,
    },
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

/**
 * The demo catalogue, then copies of its books (sharing their media, with their chapters' rows) up to
 * BOOKS, in several languages and levels (bench/catalogue-data.mjs). Answers the demo books' codes.
 */
async function prepareData(storage, copies = true) {
  await stop(await startServer(storage, ['--demo']));
  const db = new Database(join(storage, 'lingonovel.sqlite'), { readonly: true });
  const demoCodes = db
    .prepare('SELECT book_code FROM books ORDER BY id')
    .all()
    .map((book) => book.book_code);
  db.close();
  const books = copies ? await seedCopies(root, storage, BOOKS) : demoCodes.length;
  return { demoCodes, books };
}

// Browsers ask for compressed answers; so does the benchmark, for every path alike.
const HEADERS = { 'accept-encoding': 'br, gzip' };

async function load(url) {
  // Warm-up: the page cache and the JIT.
  await autocannon({ url, connections: 10, duration: WARM_UP, headers: HEADERS });
  const result = await autocannon({ url, connections: 10, duration: DURATION, headers: HEADERS });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** An answer as the bench's client gets it: status, headers and the bytes on the wire (not decoded). */
function rawAnswer(url, headers = {}) {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/**
 * The ceiling of the cache-hit rows: a bare node:http server in a process of its own (as the app server
 * is) handing out, for each path, the very answer the app gave for it, headers included
 * (bench/bare-server.mjs). Each row is compared with the bare server on its own bytes.
 */
async function startBareServer(paths, dir) {
  const answers = {};
  for (const path of paths) {
    const answer = await rawAnswer(base + path, HEADERS);
    const headers = Object.fromEntries(
      Object.entries(answer.headers).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)),
    );
    answers[path] = { status: answer.status, headers, body: answer.body.toString('base64') };
  }
  const file = join(dir, 'bare-answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const child = spawn(
    process.execPath,
    [join(root, 'scripts/bench/bare-server.mjs'), String(BARE_PORT), file],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
  });
  return { child };
}

/** The public pages whose size and hits are measured; one that answers 404 is not built yet. */
const SIZED_PAGES = ['/books', `/books?lang=${LANG}&cefr=${CEFR}`, `/learn/${LANG}`, '/lingostory'];

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

const ms = (n) => `${fixed(n, 1)} ms`;
const count = (n) => n.toLocaleString('en-US');
const mb = (bytes) => `${fixed(bytes / 2 ** 20, 1)} MB`;

/** The PostgreSQL pass: the same rows (npm run migrate-to), the same searches, plans and sitemap. */
async function measurePostgres(storage) {
  const cluster = await startPostgres();
  let server;
  try {
    const url = await copyToPostgres(root, storage, cluster.url);
    server = await startServer(storage, [], { DATABASE_URL: url });
    const browse = await measureBrowse(base, join(storage, 'server.log'), 'pg');
    const plans = await explainBrowse(root, { storageDir: storage, databaseUrl: url });
    const sitemap = await measureSitemap(base, server.pid);
    return { browse, plans, sitemap };
  } finally {
    if (server) await stop(server);
    cluster.stop();
  }
}

async function main() {
  const started = Date.now();
  const loadBefore = loadavg()[0];
  const storage = mkdtempSync(join(tmpdir(), 'lingonovel-bench-'));
  let server;
  let bare;
  try {
    console.log(`Preparing ${BOOKS} books…`);
    const { demoCodes, books } = await prepareData(storage);
    server = await startServer(storage);
    const code = demoCodes[0];

    console.log('Page sizes…');
    const pages = [];
    for (const path of SIZED_PAGES) {
      const plain = await rawAnswer(base + path);
      const br = await rawAnswer(base + path, HEADERS);
      pages.push({ path, status: plain.status, bytes: plain.body.length, br: br.body.length });
    }
    const built = pages.filter((page) => page.status === 200);

    console.log(`Load tests (autocannon, 10 connections, ${DURATION} s each)…`);
    const guestBooks = `/api/v1/guest/books?lang=${LANG}&cefr=${CEFR}`;
    const detail = `/book-detail/${code}`;
    const guestList = '/api/v1/guest/list-book';
    bare = await startBareServer([detail, guestBooks, guestList], storage);
    // Each row is compared with the bare server handing out the same bytes, measured just before and just
    // after it; its ratio is to the mean of those two runs, so a change in the machine's load moves both
    // sides of the ratio alike.
    const bareRuns = [];
    const besideBare = async (path, barePath = path) => {
      const before = await load(`http://127.0.0.1:${BARE_PORT}${barePath}`);
      const row = await load(base + path);
      const after = await load(`http://127.0.0.1:${BARE_PORT}${barePath}`);
      bareRuns.push(before, after);
      return { ...row, ceiling: (before.rps + after.rps) / 2 };
    };
    const rows = {
      detail: await besideBare(detail),
      guestBooks: await besideBare(guestBooks),
      guestList: await besideBare(guestList),
      // The same cache entry, asked with its parameters in another order: the Express chain answers it.
      guestBooksChain: await besideBare(`/api/v1/guest/books?cefr=${CEFR}&lang=${LANG}`, guestBooks),
    };
    rows.bare = {
      rps: bareRuns.reduce((sum, run) => sum + run.rps, 0) / bareRuns.length,
      p99: Math.max(...bareRuns.map((run) => run.p99)),
      errors: bareRuns.reduce((sum, run) => sum + run.errors, 0),
    };
    Object.assign(rows, {
      static: await load(`${base}/favicon.svg`),
      reader: await load(`${base}/read/${code}/1`),
      health: await load(`${base}/api/v1/health`),
    });
    for (const page of built) rows[page.path] = await load(base + page.path);
    bare.child.kill();
    bare = null;

    console.log('Uncached filters and searches (SQLite)…');
    const browse = { sqlite: await measureBrowse(base, join(storage, 'server.log'), 'sqlite') };
    const plans = [
      { name: 'SQLite', plans: await explainBrowse(root, { storageDir: storage, databaseUrl: null }) },
    ];
    console.log('Sitemap (SQLite)…');
    const sitemap = { sqlite: await measureSitemap(base, server.pid) };

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
      ...built.map((page) => page.path).filter((path) => path !== '/lingostory'),
      '/lingostory',
      '/lingonovel-story',
      '/ling',
      `/book-detail/${code}`,
      `/read/${code}/1`,
      '/about',
    ];
    const js = {};
    for (const path of jsPages) js[path] = await javascriptBytes(browser, path);
    const practiceJs = await measurePracticeJs(browser, base, code);
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
    const player = await measurePlayer(playerBrowser, base, demoCodes);
    await playerBrowser.close();

    console.log('Chapter import and recording split…');
    const imported = await measureImport(base, storage, server.pid);

    console.log(`Lighthouse (median of ${LIGHTHOUSE_RUNS})…`);
    const lighthousePages = [
      ...(built.some((page) => page.path === '/books') ? ['/books'] : []),
      '/lingostory',
      `/book-detail/${code}`,
      `/read/${code}/1`,
    ];
    const lighthouse = {};
    for (const path of lighthousePages) lighthouse[path] = await lighthouseMedian(base + path);

    // Last on this server: it adds a book of its own.
    console.log('Offline: download, resume, player offline, JavaScript and the service worker…');
    const offline = await measureOffline({ chromePath, base, storage, demoCodes });
    console.log('Dictation scoring under load…');
    const dictationLoad = loadavg()[0];
    const dictation = await measureDictationLoad(base, storage);
    const dictationLines = dictationMarkdown(dictation, {
      how: 'npm run bench',
      load: [dictationLoad, loadavg()[0]],
    });
    console.log('Formats: EPUB, M4B and subtitles of generated books…');
    const formatsLoad = loadavg()[0];
    const formats = await measureFormats({
      base,
      storage,
      pid: server.pid,
      restart: async (between) => {
        await stop(server);
        server = null;
        await between();
        server = await startServer(storage);
        return server.pid;
      },
    });
    const formatsLines = formatsMarkdown(formats, {
      root,
      how: 'npm run bench',
      load: [formatsLoad, loadavg()[0]],
    });
    console.log('Aligning an hour-long recording to its text…');
    const alignmentLoad = loadavg()[0];
    const alignmentLines = alignmentMarkdown(await measureAlignment(base, storage, server.pid), {
      root,
      how: 'npm run bench',
      load: [alignmentLoad, loadavg()[0]],
    });
    await stop(server);
    server = null;

    console.log('PostgreSQL: the same rows, searches, plans and sitemap…');
    const postgres = await measurePostgres(storage);
    browse.pg = postgres.browse;
    sitemap.pg = postgres.sitemap;
    plans.push({ name: 'PostgreSQL', plans: postgres.plans });

    const date = new Date().toISOString().slice(0, 10);
    const minutes = (Date.now() - started) / 60_000;
    const ratio = (row, to = rows.static) => row.rps / to.rps;
    /** A row's ceiling: the mean of the bare runs just before and after it. */
    const beside = (row) => ({ rps: row.ceiling });
    const loadRow = (label, row, to, toLabel, target, ok) =>
      `| ${label} | ${fixed(row.rps)} | ${row.p99} ms | ${to ? `${fixed(ratio(row, to), 2)}× ${toLabel}` : '1.00'} | ${target} | ${ok === undefined ? '' : verdict(ok)} |`;
    const missing = pages.filter((page) => page.status !== 200);
    const browseRow = (name, kind, result) =>
      `| ${name} | ${kind} | ${result.server.count} | ${ms(result.server.p50)} | ${ms(result.server.p95)} | ${ms(result.server.max)} | ${ms(result.client.p95)} | ≤ 50 ms | ${verdict(result.server.p95 <= 50)} |`;
    const sitemapRows = (name, result) =>
      result.files.map(
        (file) =>
          `| ${name} | \`${file.path}\`${file.index ? ' (index)' : ''} | ${file.urls} | ${mb(file.bytes)} | ${fixed(file.ms)} ms | ${mb(result.growth)} | < 10 MB, ≤ 50 MB | ${verdict(file.bytes < 10 * 2 ** 20 && result.growth <= 50 * 2 ** 20)} |`,
      );
    const browseFailures = [...browse.sqlite.failures, ...browse.pg.failures];
    const lines = [
      '# Benchmarks',
      '',
      `Run of \`npm run bench\` on ${date}: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${fixed(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}, Node ${process.version}; ${fixed(minutes, 1)} minutes in all.`,
      `The built server ran on a temporary STORAGE_DIR holding ${count(books)} books (the demo catalogue and copies of it in ${LANGUAGES.length - 1} languages and without one, at six CEFR levels and without one), on SQLite, then on PostgreSQL with the same rows.`,
      `Timings are compared as ratios within this run: the machine is shared, so absolute figures move between runs (the load average over a minute was ${fixed(loadBefore, 1)} at the start and ${fixed(loadavg()[0], 1)} at the end, on ${cpus().length} cores).`,
      '',
      `## Cache hits (autocannon, 10 connections, \`Accept-Encoding: br, gzip\`, ${DURATION} s each after a ${WARM_UP} s warm-up)`,
      '',
      'Every row but the baselines is a page-cache hit, answered in front of Express (server/http/cached-hits.ts) except where said. A ratio to the bare server is to the mean of its runs, on the same answer (its bytes and headers), just before and just after the row.',
      '',
      '| path | requests/s | p99 latency | ratio | target | |',
      '| --- | ---: | ---: | ---: | --- | --- |',
      loadRow(
        `bare \`node:http\` server handing out each row's own stored answer: mean of ${bareRuns.length} runs, one before and one after each row below (${bareRuns.map((run) => fixed(run.rps)).join(', ')})`,
        rows.bare,
        null,
        '',
        'ceiling',
      ),
      loadRow(
        '`/book-detail/{code}`',
        rows.detail,
        beside(rows.detail),
        'bare',
        '≥ 0.5× bare',
        ratio(rows.detail, beside(rows.detail)) >= 0.5,
      ),
      loadRow(
        `\`${guestBooks}\``,
        rows.guestBooks,
        beside(rows.guestBooks),
        'bare',
        '≥ 0.5× bare',
        ratio(rows.guestBooks, beside(rows.guestBooks)) >= 0.5,
      ),
      loadRow(
        '`/api/v1/guest/list-book`',
        rows.guestList,
        beside(rows.guestList),
        'bare',
        '≥ 0.5× bare',
        ratio(rows.guestList, beside(rows.guestList)) >= 0.5,
      ),
      loadRow(
        `the same entry as \`${guestBooks}\`, asked as \`?cefr=${CEFR}&lang=${LANG}\`: a hit through the Express chain`,
        rows.guestBooksChain,
        beside(rows.guestBooksChain),
        'bare',
        '(the way every hit went before)',
      ),
      loadRow(
        'static file `/favicon.svg` (express.static through the chain)',
        rows.static,
        null,
        '',
        'baseline',
      ),
      ...built.map((page) =>
        loadRow(
          `\`${page.path}\``,
          rows[page.path],
          rows.static,
          'static',
          '≥ 1.0× static',
          ratio(rows[page.path]) >= 1,
        ),
      ),
      loadRow(
        '`/book-detail/{code}`',
        rows.detail,
        rows.static,
        'static',
        '≥ 0.9×, p99 < 30 ms',
        ratio(rows.detail) >= 0.9 && rows.detail.p99 < 30,
      ),
      loadRow('`/read/{code}/1`', rows.reader, rows.static, 'static', '≥ 1.0×', ratio(rows.reader) >= 1),
      loadRow('`/api/v1/health` (not cached, through Nest)', rows.health, null, '', 'baseline for the API'),
      loadRow(
        '`/api/v1/guest/list-book`',
        rows.guestList,
        rows.health,
        'health',
        '≥ 0.5×',
        ratio(rows.guestList, rows.health) >= 0.5,
      ),
      '',
      `Errors or non-2xx answers during the runs: ${Object.values(rows).reduce((sum, row) => sum + row.errors, 0)}.`,
      '',
      ...(missing.length
        ? [
            `Not measured, not built on this branch yet (they answer ${[...new Set(missing.map((page) => page.status))].join(', ')}): ${missing.map((page) => `\`${page.path}\``).join(', ')}. The bench measures them once they answer 200.`,
            '',
          ]
        : []),
      `## Page sizes at ${count(books)} books (uncompressed HTML, and brotli as sent)`,
      '',
      '| page | status | HTML | brotli | target | |',
      '| --- | ---: | ---: | ---: | --- | --- |',
      ...pages.map((page) =>
        page.status === 200
          ? `| \`${page.path}\` | 200 | ${fixed(page.bytes / 1024, 1)} KB | ${fixed(page.br / 1024, 1)} KB | ≤ 100 KB | ${verdict(page.bytes <= 100 * 1024)} |`
          : `| \`${page.path}\` | ${page.status} | | | ≤ 100 KB | not built yet |`,
      ),
      '',
      `## Uncached filters and searches at ${count(books)} books (\`GET /api/v1/guest/books\`, one at a time, ${QUERIES} queries of each kind never asked before)`,
      '',
      "Server time is the duration in the request's own log line (from its arrival to the end of its answer); the client column adds the loopback round trip.",
      '',
      '| database | kind | requests | server p50 | server p95 | server max | client p95 | target (server p95) | |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
      browseRow('SQLite', 'filter', browse.sqlite.filter),
      browseRow('SQLite', 'search', browse.sqlite.search),
      browseRow('PostgreSQL', 'filter', browse.pg.filter),
      browseRow('PostgreSQL', 'search', browse.pg.search),
      '',
      `Filters combine a language, a level, a difficulty, a sort and a page (e.g. \`${browse.sqlite.examples.filter[0]}\`); searches a word, a word's start or two words, alone or with a language or level (e.g. \`${browse.sqlite.examples.search[0]}\`, \`${browse.sqlite.examples.search[1]}\`). Answers other than 200: ${browseFailures.length ? browseFailures.join('; ') : 'none'}. The query plans: [catalogue-plans.md](catalogue-plans.md).`,
      '',
      `## The sitemap at ${count(books)} books (three downloads in a row; RSS growth of the server, peak over the three)`,
      '',
      '| database | file | URLs | size | time | RSS growth | target | |',
      '| --- | --- | ---: | ---: | ---: | ---: | --- | --- |',
      ...sitemapRows('SQLite', sitemap.sqlite),
      ...sitemapRows('PostgreSQL', sitemap.pg),
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
      ...practiceMarkdown(practiceJs, `/read/${code}/1`),
      '',
      `## Lighthouse 12 (mobile preset, Debian's Chromium, median of ${LIGHTHOUSE_RUNS} runs)`,
      '',
      '| page | performance | accessibility | SEO | best practices | LCP | CLS | TBT | |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...Object.entries(lighthouse).map(([path, m]) => {
        const floor = path.startsWith('/read/') || path === '/books' ? 0.95 : 0.98;
        const ok =
          m.performance >= floor &&
          m.accessibility === 1 &&
          m.seo === 1 &&
          m.bestPractices === 1 &&
          m.cls === 0;
        return `| \`${path}\` | ${m.performance} | ${m.accessibility} | ${m.seo} | ${m.bestPractices} | ${fixed(m.lcp)} ms | ${fixed(m.cls, 3)} | ${fixed(m.tbt)} ms | ${verdict(ok)} |`;
      }),
      '',
      'Targets: performance ≥ 0.98 (the reader and `/books`: ≥ 0.95); accessibility, SEO and best practices 1.0; CLS 0.',
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
      ...offlineMarkdown(offline),
      '',
      ...dictationLines,
      ...formatsLines,
      ...alignmentLines,
    ];
    const notesFile = join(root, 'docs', 'benchmarks-notes.md');
    let notes = '';
    try {
      notes = readFileSync(notesFile, 'utf8');
    } catch {
      notes = '';
    }
    writeFileSync(join(root, 'docs', 'benchmarks.md'), lines.join('\n') + (notes ? `\n${notes}` : ''));
    writeFileSync(join(root, 'docs', 'catalogue-plans.md'), plansMarkdown(plans, books, date));
    console.log(lines.join('\n'));
    if (browseFailures.length) {
      console.error(
        `\n✖ ${browseFailures.length} browse request(s) failed:\n  ${browseFailures.join('\n  ')}`,
      );
      process.exitCode = 1;
    }
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
    reportOfflineFailures(offline);
    reportDictationFailures(dictation);
    reportFormatsFailures(formats);
  } finally {
    bare?.child.kill();
    if (server) await stop(server);
    rmSync(storage, { recursive: true, force: true });
  }
}

/** The reader's JavaScript with the practice modes (scripts/bench/practice-size.mjs). */
function practiceMarkdown(practice, path) {
  const kb = (bytes) => `${fixed(bytes / 1024, 1)} KB`;
  return [
    `### The reader's JavaScript with every practice mode in use (\`${path}\`)`,
    '',
    '| the page | script files | JS (gzip) | budget | |',
    '| --- | ---: | ---: | --- | --- |',
    `| at first paint | ${practice.firstFiles} | ${kb(practice.first)} | — | |`,
    `| translation, marks, dictation and the voice recorder loaded | ${practice.allFiles} | ${kb(practice.all)} | ≤ 80 KB | ${verdict(practice.all <= 81_920)} |`,
  ];
}

function reportOfflineFailures(offline) {
  if (!offline.failures.length) return;
  console.error(
    `\n✖ Offline use failed ${offline.failures.length} time(s):\n  ${offline.failures.join('\n  ')}`,
  );
  process.exitCode = 1;
}

/** One section alone (`BENCH_ONLY`): the built server on the demo catalogue, removed afterwards. */
async function onDemoServer(measure) {
  const storage = mkdtempSync(join(tmpdir(), 'lingonovel-bench-'));
  let server;
  try {
    console.log('Preparing the demo catalogue…');
    const { demoCodes } = await prepareData(storage, false);
    server = await startServer(storage);
    await measure(storage, demoCodes, server);
  } finally {
    if (server) await stop(server);
    rmSync(storage, { recursive: true, force: true });
  }
}

/** `BENCH_ONLY=offline`: the offline section, printed; docs/benchmarks.md is left as it is. */
const offlineOnly = () =>
  onDemoServer(async (storage, demoCodes) => {
    console.log('Offline: download, resume, player offline, JavaScript and the service worker…');
    const offline = await measureOffline({ chromePath, base, storage, demoCodes });
    console.log(['', ...offlineMarkdown(offline)].join('\n'));
    reportOfflineFailures(offline);
  });

/**
 * `BENCH_ONLY=practice`: the reader's JavaScript with every practice mode, and Lighthouse on the reader,
 * printed; docs/benchmarks.md is left as it is.
 */
const practiceOnly = () =>
  onDemoServer(async (_storage, demoCodes) => {
    const path = `/read/${demoCodes[0]}/1`;
    console.log('The reader with every practice mode…');
    const browser = await chromium.launch({
      executablePath: chromePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    });
    const practice = await measurePracticeJs(browser, base, demoCodes[0]);
    await browser.close();
    console.log(`Lighthouse on ${path} (median of ${LIGHTHOUSE_RUNS})…`);
    const m = await lighthouseMedian(base + path);
    console.log(
      [
        '',
        ...practiceMarkdown(practice, path),
        '',
        '| page | performance | accessibility | SEO | best practices | LCP | CLS | TBT | |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
        `| \`${path}\` | ${m.performance} | ${m.accessibility} | ${m.seo} | ${m.bestPractices} | ${fixed(m.lcp)} ms | ${fixed(m.cls, 3)} | ${fixed(m.tbt)} ms | ${verdict(m.performance >= 0.95)} |`,
      ].join('\n'),
    );
  });

function reportFormatsFailures(formats) {
  if (!formats.failures.length) return;
  console.error(`\n✖ Formats failed ${formats.failures.length} time(s):\n  ${formats.failures.join('\n  ')}`);
  process.exitCode = 1;
}

/**
 * `BENCH_ONLY=formats`: the EPUB, M4B and subtitles of generated books on the demo catalogue
 * (scripts/bench/formats-timing.mjs), printed and written into docs/benchmarks.md in place of its
 * formats section.
 */
async function formatsOnly() {
  const storage = mkdtempSync(join(tmpdir(), 'lingonovel-bench-'));
  let server;
  try {
    console.log('Preparing the demo catalogue…');
    await prepareData(storage, false);
    server = await startServer(storage);
    const loadBefore = loadavg()[0];
    console.log('Formats: EPUB, M4B and subtitles of generated books…');
    const formats = await measureFormats({
      base,
      storage,
      pid: server.pid,
      restart: async (between) => {
        await stop(server);
        server = null;
        await between();
        server = await startServer(storage);
        return server.pid;
      },
    });
    // The raw figures, to write the section again without measuring again.
    if (process.env.BENCH_FORMATS_JSON)
      writeFileSync(
        process.env.BENCH_FORMATS_JSON,
        JSON.stringify({ formats, loadBefore, load: loadavg()[0] }),
      );
    const lines = formatsMarkdown(formats, {
      root,
      how: `BENCH_ONLY=formats${process.env.BENCH_FORMATS_COLD ? ` BENCH_FORMATS_COLD=${process.env.BENCH_FORMATS_COLD}` : ''} node scripts/bench.mjs`,
      load: [loadBefore, loadavg()[0]],
    });
    // A quick try on a smaller book (scripts/bench/formats-timing.mjs) is printed, never written.
    const quickTry = [
      'BENCH_FORMATS_CHAPTERS',
      'BENCH_FORMATS_PHRASES',
      'BENCH_FORMATS_SMALL',
      'BENCH_CLIP_SECONDS',
    ].some((name) => process.env[name] !== undefined);
    if (!quickTry) writeFormatsSection(root, lines);
    console.log(['', ...lines].join('\n'));
    reportFormatsFailures(formats);
  } finally {
    if (server) await stop(server);
    rmSync(storage, { recursive: true, force: true });
  }
}

/**
 * `BENCH_ONLY=dictation`: /api/v1/health while members send the largest dictations, on the demo catalogue
 * (scripts/bench/dictation-load.mjs), printed and written into docs/benchmarks.md in place of its section.
 */
const dictationOnly = () =>
  onDemoServer(async (storage) => {
    const loadBefore = loadavg()[0];
    console.log('Dictation scoring under load…');
    const dictation = await measureDictationLoad(base, storage);
    const lines = dictationMarkdown(dictation, {
      how: 'BENCH_ONLY=dictation node scripts/bench.mjs',
      load: [loadBefore, loadavg()[0]],
    });
    writeSection(root, DICTATION_HEADING, lines);
    console.log(['', ...lines].join('\n'));
    reportDictationFailures(dictation);
  });

/**
 * `BENCH_ONLY=alignment`: an hour-long recording aligned to its text, on the demo catalogue
 * (scripts/bench/alignment-timing.mjs), printed and written into docs/benchmarks.md in place of its section.
 */
const alignmentOnly = () =>
  onDemoServer(async (storage, _demoCodes, server) => {
    const loadBefore = loadavg()[0];
    console.log('Aligning an hour-long recording to its text…');
    const alignment = await measureAlignment(base, storage, server.pid);
    // The raw figures, to write the section again without measuring again.
    if (process.env.BENCH_ALIGNMENT_JSON)
      writeFileSync(
        process.env.BENCH_ALIGNMENT_JSON,
        JSON.stringify({ alignment, loadBefore, load: loadavg()[0] }),
      );
    const lines = alignmentMarkdown(alignment, {
      root,
      how: 'BENCH_ONLY=alignment node scripts/bench.mjs',
      load: [loadBefore, loadavg()[0]],
    });
    // A quick try on fewer sentences is printed, never written.
    if (process.env.BENCH_ALIGN_SENTENCES === undefined) writeSection(root, ALIGNMENT_HEADING, lines);
    console.log(['', ...lines].join('\n'));
  });

const DICTIONARIES_HEADING = '## Dictionaries: import and lookup';

/**
 * `BENCH_ONLY=dictionaries`: Debian's FreeDict German-English imported (and replaced) through the admin
 * API on SQLite then PostgreSQL, with the server's RSS sampled, then the p95 of lookups on it, from loopback
 * (scripts/bench/dictionary-import-timing.mjs, lookup-timing.mjs); written into docs/benchmarks.md.
 * The server trusts X-Forwarded-For from loopback here, so that the lookups come from many addresses and
 * the 600-a-minute limit (docs/lookup.md) never answers in place of the lookup.
 */
/**
 * One engine's pass: a demo server on `env`'s database, FreeDict imported and replaced, then looked up;
 * with `taps`, words of the demo's German book tapped in the reader too.
 */
async function measureDictionaries(engine, env, { taps = false } = {}) {
  const storage = mkdtempSync(join(tmpdir(), 'lingonovel-bench-'));
  let server;
  try {
    server = await startServer(storage, ['--demo'], { TRUST_PROXY: 'loopback', ...env });
    console.log(`${engine}: importing FreeDict German-English, then replacing it…`);
    const auth = await adminHeaders(base, storage);
    const imported = await measureDictionaryImport(base, auth, server.pid, { replace: true });
    console.log(`${engine}: looking words up…`);
    const lookups = await measureLookup(base);
    const rows = [
      ...dictionaryImportMarkdown(imported, engine),
      lookupMarkdown(lookups, `${imported.entries.toLocaleString('en-US')} entries, ${engine}`),
    ];
    if (taps) {
      console.log(`${engine}: tapping words in the reader…`);
      const browser = await chromium.launch({
        executablePath: chromePath,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
      });
      try {
        rows.push(...lookupTapMarkdown(await measureLookupTaps(browser, base)));
      } finally {
        await browser.close();
      }
    }
    return rows;
  } finally {
    if (server) await stop(server);
    rmSync(storage, { recursive: true, force: true });
  }
}

const dictionariesOnly = async () => {
  const loadBefore = loadavg()[0];
  const rows = await measureDictionaries('SQLite', {}, { taps: true });
  const cluster = await startPostgres();
  try {
    rows.push(...(await measureDictionaries('PostgreSQL', { DATABASE_URL: cluster.url })));
  } finally {
    cluster.stop();
  }
  const lines = [
    DICTIONARIES_HEADING,
    '',
    `\`BENCH_ONLY=dictionaries node scripts/bench.mjs\`, ${cpus().length} cores, load ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}. ` +
      'Import times are wall clock from the first byte sent to the answer, with the server process’s CPU time beside ' +
      'them (on a shared machine, what the import itself cost); lookups are timed from loopback, so the figure ' +
      'includes the HTTP round trip and bounds the server time from above.',
    '',
    '| measure | figure | target | |',
    '| --- | --- | --- | --- |',
    ...rows,
  ];
  writeSection(root, DICTIONARIES_HEADING, lines);
  console.log(['', ...lines].join('\n'));
};

const COVERAGE_HEADING = '## Coverage: known words per book';

/**
 * `BENCH_ONLY=coverage`: the catalogue at BOOKS books with their counted words, a member who knows
 * KNOWN_WORDS Spanish words, and `GET user/coverage` of a page of books and of 100, on SQLite then on
 * PostgreSQL with the same rows (scripts/bench/coverage-timing.mjs); written into docs/benchmarks.md.
 */
const coverageOnly = async () => {
  const storage = mkdtempSync(join(tmpdir(), 'lingonovel-bench-'));
  let server;
  const loadBefore = loadavg()[0];
  try {
    console.log('Preparing the catalogue…');
    const { books } = await prepareData(storage);
    server = await startServer(storage);
    const member = await signUpMember(base);
    await stop(server);
    server = undefined;
    const vocabulary = addVocabulary(storage);
    const { codes, common, top } = seedKnownWords(storage, member.id);
    const rows = [];
    const measureOn = async (engine, env) => {
      server = await startServer(storage, [], env);
      const where = { storage, url: env.DATABASE_URL };
      const token = await signIn(base, member);
      await holdComputation(where, member.id);
      for (const size of [24, 100]) {
        console.log(`${engine}: coverage of ${size} books, computed when asked…`);
        const live = await measureCoverage(base, token, codes, { size, samples: 100 });
        rows.push(coverageMarkdown(live, engine, books, { live: true }));
      }
      console.log(`${engine}: one computation…`);
      const computation = await timeComputation(base, token, where, member.id, codes);
      for (const size of [24, 100]) {
        console.log(`${engine}: coverage of ${size} books, precomputed…`);
        rows.push(coverageMarkdown(await measureCoverage(base, token, codes, { size }), engine, books));
      }
      console.log(`${engine}: marking a word…`);
      rows.push(
        ...markingMarkdown(await measureMarking(base, token, top), computation, engine, codes.length),
      );
      await stop(server);
      server = undefined;
    };
    await measureOn('SQLite', {});
    const cluster = await startPostgres();
    try {
      await measureOn('PostgreSQL', { DATABASE_URL: await copyToPostgres(root, storage, cluster.url) });
    } finally {
      cluster.stop();
    }
    const lines = [
      COVERAGE_HEADING,
      '',
      `\`BENCH_ONLY=coverage node scripts/bench.mjs\`, ${cpus().length} cores, load ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}. ` +
        `${books.toLocaleString('en-US')} books (${codes.length.toLocaleString('en-US')} in Spanish), each with its original's counted words, ` +
        `and each Spanish one ${BOOK_VOCABULARY.toLocaleString('en-US')} distinct words more as a novel has (${vocabulary.toLocaleString('en-US')} rows of chapter_words, Zipf over 30,000 words); ` +
        `the member knows ${KNOWN_WORDS.toLocaleString('en-US')} Spanish words, the ${common.toLocaleString('en-US')} most frequent keys of the Spanish books and made-up ones. ` +
        'Timed from loopback: the figure bounds the server time from above.',
      '',
      '| measure | figure | target | |',
      '| --- | --- | --- | --- |',
      ...rows,
    ];
    writeSection(root, COVERAGE_HEADING, lines);
    console.log(['', ...lines].join('\n'));
  } finally {
    if (server) await stop(server);
    rmSync(storage, { recursive: true, force: true });
  }
};

const runs = {
  coverage: coverageOnly,
  dictionaries: dictionariesOnly,
  offline: offlineOnly,
  practice: practiceOnly,
  formats: formatsOnly,
  dictation: dictationOnly,
  alignment: alignmentOnly,
};
(runs[ONLY] ?? main)().catch((error) => {
  console.error(error);
  process.exit(1);
});
