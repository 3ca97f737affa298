// Uncached filters and searches of GET /api/v1/guest/books: every request a query nobody asked before (so
// a filter is a page-cache miss, and a search is never kept), one at a time. The server time of each is
// the duration its own log line gives (the request sends its id as X-Request-Id, which the server keeps
// from a loopback peer): the client's figure adds the loopback round trip and this process's own pauses.
import { readFileSync } from 'node:fs';
import { LANGUAGES, LEVELS, WORDS } from './catalogue-data.mjs';

const DIFFICULTIES = ['Easy', 'Medium', 'Hard', null];
const SORTS = ['newest', 'title', 'shortest'];
export const QUERIES = 150;

/** A fixed pseudo-random sequence, so that every run asks the same queries. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const pick = (next, list) => list[Math.floor(next() * list.length)];
const langWord = (language) => (language === null ? 'none' : language.toLowerCase());

/** `count` distinct filter queries (language, level, difficulty, sort, page) and as many searches. */
export function browseQueries(count = QUERIES) {
  const next = random(21);
  const filters = new Set();
  while (filters.size < count) {
    const params = new URLSearchParams();
    if (next() < 0.8) params.set('lang', langWord(pick(next, LANGUAGES)));
    if (next() < 0.7) params.set('cefr', pick(next, LEVELS) ?? 'none');
    const difficulty = pick(next, DIFFICULTIES);
    if (difficulty) params.set('difficulty', difficulty);
    const sort = pick(next, SORTS);
    if (sort !== 'newest') params.set('sort', sort);
    const page = 1 + Math.floor(next() ** 3 * 10);
    if (page > 1) params.set('page', String(page));
    filters.add(params.toString());
  }
  const searches = new Set();
  while (searches.size < count) {
    const params = new URLSearchParams();
    if (next() < 0.5) params.set('lang', langWord(pick(next, LANGUAGES)));
    if (next() < 0.3) params.set('cefr', pick(next, LEVELS) ?? 'none');
    // A whole word, a word's start, two words, or a word of the demo's own titles.
    const word = pick(next, WORDS);
    const q = [
      word,
      word.slice(0, 3),
      `${word} ${pick(next, WORDS)}`,
      pick(next, ['cartas', 'nuit', 'fiets']),
    ];
    params.set('q', q[searches.size % q.length]);
    searches.add(params.toString());
  }
  return { filters: [...filters], searches: [...searches] };
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1),
  };
}

/** Server times of the log lines whose id starts with `prefix`, by id. */
function loggedTimes(logFile, prefix) {
  const times = new Map();
  const line = new RegExp(`GET /api/v1/guest/books (\\d{3}) ([\\d.]+)ms id=(${prefix}[\\w.:-]+)`, 'g');
  for (const match of readFileSync(logFile, 'utf8').matchAll(line)) times.set(match[3], Number(match[2]));
  return times;
}

/**
 * Asks every query once; answers the server and client times of filters and searches, and any answer
 * that was not a 200 (counted as a failure, not left out).
 */
export async function measureBrowse(base, logFile, label) {
  const { filters, searches } = browseQueries();
  const client = { filter: [], search: [] };
  const failures = [];
  const ids = { filter: [], search: [] };
  // A few requests first, so that the JIT and the database's caches are as warm as on a live server.
  // (With per_page, which the measured queries never set: they stay misses.)
  for (const query of ['lang=es', 'q=kalo', 'cefr=B1&sort=title', 'sort=shortest'])
    await (await fetch(`${base}/api/v1/guest/books?${query}&per_page=5`)).arrayBuffer();
  let n = 0;
  for (const [kind, queries] of [
    ['filter', filters],
    ['search', searches],
  ]) {
    for (const query of queries) {
      const id = `bench-${label}-${kind}-${n++}`;
      const started = process.hrtime.bigint();
      const res = await fetch(`${base}/api/v1/guest/books?${query}`, { headers: { 'X-Request-Id': id } });
      await res.arrayBuffer();
      client[kind].push(Number(process.hrtime.bigint() - started) / 1e6);
      if (res.status !== 200) failures.push(`${query}: ${res.status}`);
      ids[kind].push(id);
    }
  }
  // The log line is written as the answer goes out; give the last ones a moment to reach the file.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const logged = loggedTimes(logFile, `bench-${label}-`);
  const server = (kind) => {
    const times = ids[kind].map((id) => logged.get(id));
    if (times.some((time) => time === undefined)) failures.push(`${kind}: a request has no log line`);
    return summary(times.filter((time) => time !== undefined));
  };
  return {
    filter: { server: server('filter'), client: summary(client.filter) },
    search: { server: server('search'), client: summary(client.search) },
    failures,
    examples: { filter: filters.slice(0, 3), search: searches.slice(0, 3) },
  };
}
