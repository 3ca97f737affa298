// What the offline feature costs in bytes (docs/offline.md): the JavaScript it adds to the reader page,
// attributed by the chunks Astro built from its entry scripts, and the service worker with its precache.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = new URL('../..', import.meta.url).pathname;
const CLIENT = join(root, 'dist/web/client');
const OFFLINE_MODULES = join(root, 'site/lib/offline');

const gz = (body) => (body.length ? gzipSync(body, { level: 9 }).length : 0);

/** The client entry modules Astro built, by the chunk file each became (from the server's manifest). */
function entryModules() {
  const dir = join(root, 'dist/web/server');
  const file = readdirSync(dir).find((name) => /^manifest_.*\.mjs$/.test(name));
  const found = file && /"entryModules":(\{[^}]*\})/.exec(readFileSync(join(dir, file), 'utf8'));
  if (!found) throw new Error('dist/web/server/manifest_*.mjs has no entryModules: did Astro change?');
  const byChunk = new Map();
  for (const [id, out] of Object.entries(JSON.parse(found[1])))
    if (out.startsWith('_astro/')) byChunk.set(out.slice('_astro/'.length), id);
  return byChunk;
}

/**
 * Whether a client entry is the offline feature's: a module under site/lib/offline, or an .astro file's
 * script block whose every import is one (BaseLayout's and OfflineDownload's today).
 */
function isOfflineEntry(id) {
  const [file, query] = id.split('?');
  if (!query) return file.startsWith(`${OFFLINE_MODULES}/`);
  const index = Number(/index=(\d+)/.exec(query)?.[1]);
  // Astro bundles the <script> blocks without attributes, numbered in order.
  const block = [...readFileSync(file, 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)][index]?.[1];
  if (block === undefined) throw new Error(`${id}: no script block ${index}`);
  const imports = [...block.matchAll(/import\s+(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/g)].map((m) => m[1]);
  return (
    imports.length > 0 &&
    imports.every((spec) => resolve(dirname(file), spec).startsWith(`${OFFLINE_MODULES}/`))
  );
}

/** The chunks a chunk imports, statically or dynamically. */
const chunkImports = (file) =>
  [
    ...readFileSync(join(CLIENT, '_astro', file), 'utf8').matchAll(
      /(?:from|import)\s*\(?\s*["']\.\/([^"']+\.js)["']/g,
    ),
  ].map((m) => m[1]);

function closure(start) {
  const seen = new Set(start);
  for (const file of seen) for (const next of chunkImports(file)) seen.add(next);
  return seen;
}

/**
 * The gzipped JavaScript the reader page loads, and the part the offline feature brings: its entry
 * chunks and every chunk they import. Chunks other entries import too (the API client, the queue the
 * player uses) are counted in full, so the figure is an upper bound; the page without the feature would
 * still load those, and the "only offline" part leaves them out.
 */
export async function measureOfflineJs(browser, base, code) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts = new Map();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.set(
        new URL(response.url()).pathname,
        response.body().catch(() => Buffer.alloc(0)),
      );
  });
  await page.goto(`${base}/read/${code}/1`, { waitUntil: 'networkidle' });
  const inline = await page.$$eval('script:not([src]):not([type="application/ld+json"])', (nodes) =>
    nodes.map((n) => n.textContent ?? ''),
  );
  await context.close();
  const sizes = new Map();
  for (const [path, body] of scripts) sizes.set(path.replace(/^\/_astro\//, ''), gz(await body));
  const total = [...sizes.values()].reduce((a, b) => a + b, 0) + gz(Buffer.from(inline.join('')));
  const entries = entryModules();
  const loadedEntries = [...sizes.keys()].filter((file) => entries.has(file));
  const offlineEntries = loadedEntries.filter((file) => isOfflineEntry(entries.get(file)));
  const offline = [...closure(offlineEntries)].filter((file) => sizes.has(file));
  const others = closure(loadedEntries.filter((file) => !offlineEntries.includes(file)));
  const sum = (files) => files.reduce((a, file) => a + sizes.get(file), 0);
  return {
    total,
    offline: sum(offline),
    only: sum(offline.filter((file) => !others.has(file))),
    chunks: offline.map((file) => ({ file, bytes: sizes.get(file), shared: others.has(file) })),
    entries: offlineEntries,
  };
}

/**
 * The service worker's size, and the files it keeps ahead of time (its injected precache list): the
 * built files, which scripts/build-sw.mjs sums too, and the pages it lists (the offline page), asked of the
 * server.
 */
export async function measureServiceWorker(base) {
  const sw = readFileSync(join(CLIENT, 'sw.js'));
  const list = /\[\{"revision":[^\]]*\]/.exec(sw.toString('utf8'));
  if (!list) throw new Error('dist/web/client/sw.js has no precache list');
  const entries = JSON.parse(list[0]);
  let fileBytes = 0;
  let pageBytes = 0;
  for (const { url } of entries) {
    if (url.startsWith('/')) pageBytes += (await (await fetch(base + url)).arrayBuffer()).byteLength;
    else fileBytes += statSync(join(CLIENT, url)).size;
  }
  return { raw: sw.length, gz: gz(sw), precacheEntries: entries.length, fileBytes, pageBytes };
}
