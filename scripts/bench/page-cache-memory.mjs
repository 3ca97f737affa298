// What a page-cache entry really costs beside its bodies and key: the figure behind ENTRY_OVERHEAD_BYTES
// in server/http/page-cache.ts. Fills a PageCache (from the build) with small guest answers, the kind whose
// fixed cost matters most, and compares heapUsed + external after a full GC with what the bodies and keys
// alone weigh. A first fill, cleared, warms the heap up so that its own growth is not counted.
//   node scripts/bench/page-cache-memory.mjs [entries=20000] [body bytes=400]
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const require = createRequire(import.meta.url);
const { PageCache, ENTRY_OVERHEAD_BYTES } = require(
  join(
    import.meta.dirname ?? new URL('.', import.meta.url).pathname,
    '../../dist/app/server/http/page-cache.js',
  ),
);

const entries = Number(process.argv[2] ?? 20_000);
const bodyBytes = Number(process.argv[3] ?? 400);

/** A guest answer of about `bodyBytes`, different each time (so that it compresses as a real one does). */
function answer(n) {
  const book = { book_code: `b${n}x${Math.random().toString(36).slice(2, 10)}`, title: `Libro ${n}` };
  const filler = 'abcdefghij klmnopqrst '
    .repeat(Math.ceil(bodyBytes / 22))
    .slice(0, Math.max(0, bodyBytes - 150));
  const body = JSON.stringify({
    data: [{ ...book, description: filler }],
    meta: { total: entries, page: n, per_page: 1 },
  });
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: Buffer.from(body),
  };
}

async function fill(cache, from) {
  let bodies = 0;
  let keys = 0;
  for (let n = from; n < from + entries; n++) {
    const key = `/api/v1/guest/books?lang=es&page=${n}&per_page=${(n % 5) * 10 + 10}`;
    const { page } = await cache.render(key, () => Promise.resolve(answer(n)));
    bodies += page.identity.length + page.gzip.length + page.br.length;
    keys += key.length;
  }
  return { bodies, keys };
}

function memory() {
  gc();
  gc();
  const { heapUsed, external, rss } = process.memoryUsage();
  return { held: heapUsed + external, rss };
}

const cache = new PageCache(Number.MAX_SAFE_INTEGER);
await fill(cache, 0);
cache.clear();
const before = memory();
const { bodies, keys } = await fill(cache, entries);
const after = memory();
const held = after.held - before.held;
const perEntry = (held - bodies - keys) / entries;
const kib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
console.log(
  `${entries} entries, bodies ${kib(bodies)}, keys ${kib(keys)}: heap + external grew ${kib(held)}, ` +
    `RSS ${kib(after.rss - before.rss)}; ${perEntry.toFixed(0)} bytes an entry beside its bodies and key ` +
    `(ENTRY_OVERHEAD_BYTES counts ${ENTRY_OVERHEAD_BYTES}); the cache counted ${kib(cache.sizeInBytes)}, ` +
    `${(held / cache.sizeInBytes).toFixed(2)}× of it held`,
);
