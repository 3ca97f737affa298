// Coverage at the catalogue's size: a member who knows 5,000 Spanish words asks how much of 100 books
// (and of a page of 24) they know, `GET user/coverage`, timed from loopback like the lookup's bench
// (docs/word-status.md, "Coverage"; the target is 50 ms p95).
// Run by `BENCH_ONLY=coverage node scripts/bench.mjs`.
import { join } from 'node:path';
import Database from 'better-sqlite3';

export const COVERAGE_P95_LIMIT_MS = 50;
export const KNOWN_WORDS = 5000;

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** A new member, signed up through the API: their id and the credentials to sign in with. */
export async function signUpMember(base) {
  const stamp = Date.now();
  const account = {
    name: 'Bench Learner',
    email: `coverage-${stamp}@example.com`,
    password: `Pass-${stamp}!x`,
  };
  const res = await fetch(`${base}/api/v1/user/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...account, repeat_password: account.password }),
  });
  if (!res.ok) throw new Error(`signup: ${res.status} ${await res.text()}`);
  return { id: (await res.json()).user.id, ...account };
}

/**
 * Gives the member `KNOWN_WORDS` known Spanish words, written straight into the stopped server's SQLite
 * file: the most frequent keys of the Spanish books first (a learner knows the common words first), then
 * made-up ones to reach the count. Answers the codes of the Spanish books.
 */
export function seedKnownWords(storage, userId) {
  const db = new Database(join(storage, 'lingonovel.sqlite'));
  try {
    const common = db
      .prepare(
        `SELECT w.word AS word FROM chapter_words w JOIN books b ON b.id = w.book_id
          WHERE b.language = 'es' GROUP BY w.word ORDER BY SUM(w.count) DESC LIMIT ?`,
      )
      .all(KNOWN_WORDS)
      .map((row) => row.word);
    const words = [...common];
    for (let i = 0; words.length < KNOWN_WORDS; i++) words.push(`zzbench${i}`);
    const insert = db.prepare(
      "INSERT INTO word_statuses (user_id, lang, word, status, batch_id, updated_at) VALUES (?, 'es', ?, 'known', NULL, ?)",
    );
    const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
    db.transaction(() => {
      for (const word of words) insert.run(userId, word, now);
    })();
    return {
      common: common.length,
      codes: db
        .prepare("SELECT book_code FROM books WHERE language = 'es' ORDER BY id")
        .all()
        .map((row) => row.book_code),
    };
  } finally {
    db.close();
  }
}

/** The member's token. */
export async function signIn(base, { email, password }) {
  const res = await fetch(`${base}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}

/** `samples` coverage requests of `size` books each (a sliding window over `codes`): p50, p95, worst. */
export async function measureCoverage(base, token, codes, { size = 100, samples = 300, warmUp = 20 } = {}) {
  const once = async (i) => {
    const start = (i * 37) % Math.max(1, codes.length - size);
    const books = codes.slice(start, start + size).join(',');
    const started = process.hrtime.bigint();
    const res = await fetch(`${base}/api/v1/user/coverage?books=${books}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const body = await res.json();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.status !== 200) throw new Error(`coverage answered ${res.status}: ${JSON.stringify(body)}`);
    return { ms, books: Object.keys(body.data).length };
  };
  for (let i = 0; i < warmUp; i++) await once(i);
  const times = [];
  let answered = 0;
  for (let i = 0; i < samples; i++) {
    const result = await once(i + warmUp);
    times.push(result.ms);
    answered = result.books;
  }
  times.sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 10) / 10;
  return {
    size,
    samples,
    answered,
    median: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
    max: round(times[times.length - 1]),
  };
}

/** The bench's row for one engine and one request size. */
export function coverageMarkdown(result, engine, books) {
  return (
    `| \`GET user/coverage\` of ${result.size} Spanish books (${books.toLocaleString('en-US')} books, ` +
    `${KNOWN_WORDS.toLocaleString('en-US')} known words), ${engine}, p95 of ${result.samples} | ` +
    `${result.p95} ms (median ${result.median}, worst ${result.max}; ${result.answered} books answered) | ` +
    `≤ ${COVERAGE_P95_LIMIT_MS} ms | ${result.p95 <= COVERAGE_P95_LIMIT_MS ? 'met' : '**missed**'} |`
  );
}
