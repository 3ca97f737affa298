// How long a word's lookup takes (GET /api/v1/lookup, docs/lookup.md "Speed"): the p95 of many lookups of
// varied words against a running server that holds a large dictionary (Debian's freedict-deu-eng, about
// 450,000 entries, imported first). The target is p95 ≤ 20 ms of server time; the time is taken from the
// request to the last byte over loopback, which is the server's time plus a little.
import { readFileSync } from 'node:fs';

export const LOOKUP_P95_LIMIT_MS = 20;
const DEFAULT_INDEX = '/usr/share/dictd/freedict-deu-eng.index';

/**
 * Headwords from a dictd index (its first column), spread over the whole file, each asked three ways so
 * that every step is measured: as written (form), lower-cased with its accents gone (folded) and with a
 * few letters added (a miss: every step runs).
 */
export function wordsFromIndex(path = DEFAULT_INDEX, count = 300) {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('00'));
  const step = Math.max(1, Math.floor(lines.length / count));
  const words = [];
  for (let i = 0; i < lines.length && words.length < count * 3; i += step) {
    const headword = lines[i].split('\t')[0];
    if (!headword || headword.length > 60) continue;
    words.push(headword, headword.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase(), `${headword}xyz`);
  }
  return words;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * Looks up `samples` words one after another (after `warmUp` not counted) and answers the median, p95
 * and worst times in milliseconds. Each batch of lookups comes from its own address (X-Forwarded-For,
 * which a server started for the bench trusts from loopback), so the 600-a-minute limit never answers.
 */
export async function measureLookup(
  base,
  { lang = 'de', target = 'en', words = wordsFromIndex(), samples = 2000, warmUp = 100 } = {},
) {
  if (!words.length) throw new Error('No words to look up.');
  let sent = 0;
  const once = async (word) => {
    const address = `10.77.${(sent >> 16) & 255}.${(sent++ >> 8) & 255}`;
    const url = `${base}/api/v1/lookup?lang=${lang}&target=${target}&word=${encodeURIComponent(word)}`;
    const started = process.hrtime.bigint();
    const res = await fetch(url, { headers: { 'X-Forwarded-For': address } });
    const body = await res.json();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.status !== 200)
      throw new Error(`lookup of ${word} answered ${res.status}: ${JSON.stringify(body)}`);
    return { ms, matched: body.data.matched };
  };
  for (let i = 0; i < warmUp; i++) await once(words[i % words.length]);
  const times = [];
  const matched = {};
  for (let i = 0; i < samples; i++) {
    const result = await once(words[i % words.length]);
    times.push(result.ms);
    matched[result.matched ?? 'none'] = (matched[result.matched ?? 'none'] ?? 0) + 1;
  }
  times.sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 10) / 10;
  return {
    samples,
    words: words.length,
    median: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
    max: round(times[times.length - 1]),
    matched,
    ok: percentile(times, 95) <= LOOKUP_P95_LIMIT_MS,
  };
}

/** The row docs/benchmarks.md shows. */
export function lookupMarkdown(result, entries) {
  const steps = Object.entries(result.matched)
    .map(([step, n]) => `${step} ${n}`)
    .join(', ');
  return (
    `| Word lookup (GET lookup, ${entries ?? '?'}), p95 of ${result.samples} | ` +
    `${result.p95} ms (median ${result.median}, worst ${result.max}; ${steps}) | ≤ ${LOOKUP_P95_LIMIT_MS} ms | ` +
    `${result.ok ? 'yes' : 'NO'} |`
  );
}
