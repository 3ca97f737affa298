// Coverage at the catalogue's size: a member who knows 5,000 Spanish words asks how much of 100 books
// (and of a page of 24) they know, `GET user/coverage`, timed from loopback like the lookup's bench
// (docs/word-status.md, "Coverage"; the target is 50 ms p95): read precomputed, and computed when asked
// (while the member's computation is due); a word marked; one computation of the member's Spanish.
// Run by `BENCH_ONLY=coverage node scripts/bench.mjs`.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

export const COVERAGE_P95_LIMIT_MS = 50;
export const KNOWN_WORDS = 5000;
/** Distinct words a Spanish book gets on top of its original's, as a novel has (Zipf over VOCABULARY). */
export const BOOK_VOCABULARY = 1500;
const VOCABULARY = 30_000;

/**
 * The demo's books are short (a few hundred distinct words): each Spanish copy gets BOOK_VOCABULARY more
 * words in its first chapter, drawn from a Zipf distribution over VOCABULARY made-up words (a common word
 * in most books, a rare one in few), so the coverage is computed over rows as many as real novels hold.
 * Written into the stopped server's SQLite file. Answers how many rows were added.
 */
export function addVocabulary(storage) {
  const db = new Database(join(storage, 'lingonovel.sqlite'));
  try {
    const chapters = db
      .prepare(
        `SELECT MIN(c.id) AS chapter_id, b.id AS book_id FROM books b JOIN chapters c ON c.book_id = b.id
          WHERE b.language = 'es' GROUP BY b.id`,
      )
      .all();
    const insert = db.prepare(
      'INSERT OR IGNORE INTO chapter_words (chapter_id, form, book_id, word, count) VALUES (?, ?, ?, ?, ?)',
    );
    // Zipf: rank r drawn with weight 1/r, by inverting the harmonic cumulative sum.
    const cumulative = [];
    let total = 0;
    for (let r = 1; r <= VOCABULARY; r++) cumulative.push((total += 1 / r));
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * total;
    const draw = () => {
      const x = random();
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return lo + 1;
    };
    let added = 0;
    db.transaction(() => {
      for (const { chapter_id: chapterId, book_id: bookId } of chapters) {
        const counts = new Map();
        while (counts.size < BOOK_VOCABULARY) {
          const word = `zv${draw()}`;
          counts.set(word, (counts.get(word) ?? 0) + 1);
        }
        for (const [word, count] of counts) added += insert.run(chapterId, word, bookId, word, count).changes;
      }
    })();
    return added;
  } finally {
    db.close();
  }
}

/**
 * Runs statements on the bench's database while the server runs: SQLite's file (WAL lets both write) or
 * PostgreSQL (`url`).
 */
async function onDatabase({ storage, url }, statements) {
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const text of statements) await client.query(text);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(join(storage, 'lingonovel.sqlite'));
  try {
    for (const text of statements) db.exec(text);
  } finally {
    db.close();
  }
}

const dbTime = (date) => date.toISOString().replace('T', ' ').replace('Z', '');

/**
 * The member's computation is due and claimed by another instance for a day, so that every request is
 * computed when asked (what a member meets between a change of the catalogue and its computation).
 */
export const holdComputation = (where, userId) =>
  onDatabase(where, [
    `DELETE FROM coverage_runs WHERE user_id = ${Number(userId)}`,
    `DELETE FROM book_coverage WHERE user_id = ${Number(userId)}`,
    `INSERT INTO coverage_runs (user_id, lang, changed_at, computed_at, claimed_until)
     VALUES (${Number(userId)}, 'es', '${dbTime(new Date())}', NULL, '${dbTime(new Date(Date.now() + 86_400_000))}')`,
  ]);

/**
 * From no computation at all: the member's first request asks for it, and `user/books?sort=coverage`
 * answers its time once it is done. Answers how long that took (polled every 20 ms).
 */
export async function timeComputation(base, token, where, userId, codes) {
  await onDatabase(where, [`DELETE FROM coverage_runs WHERE user_id = ${Number(userId)}`]);
  const headers = { Authorization: `Bearer ${token}` };
  const started = process.hrtime.bigint();
  await fetch(`${base}/api/v1/user/coverage?books=${codes.slice(0, 24).join(',')}`, { headers });
  for (;;) {
    const res = await fetch(`${base}/api/v1/user/books?lang=es&sort=coverage`, { headers });
    if ((await res.json()).meta?.coverage_as_of) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Math.round(Number(process.hrtime.bigint() - started) / 1e6);
}

/** `samples` status changes of the most frequent key, known then new in turn: p50, p95, worst. */
export async function measureMarking(base, token, word, { samples = 200 } = {}) {
  const times = [];
  for (let i = 0; i < samples + 10; i++) {
    const started = process.hrtime.bigint();
    const res = await fetch(`${base}/api/v1/user/word-status`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ lang: 'es', word, status: i % 2 ? 'known' : 'new' }),
    });
    await res.text();
    if (res.status !== 200) throw new Error(`word-status answered ${res.status}`);
    if (i >= 10) times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return summary(times, samples);
}

const summary = (times, samples) => {
  const round = (ms) => Math.round(ms * 10) / 10;
  return {
    samples,
    median: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
    max: round(times[times.length - 1]),
  };
};

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
      top: common[0],
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
  return { size, answered, ...summary(times, samples) };
}

/** The bench's row for one engine and one request size, read precomputed or computed when asked. */
export function coverageMarkdown(result, engine, books, { live = false } = {}) {
  const row =
    `| \`GET user/coverage\` of ${result.size} Spanish books (${books.toLocaleString('en-US')} books, ` +
    `${KNOWN_WORDS.toLocaleString('en-US')} known words), ${engine}, ${live ? 'computed when asked (its computation due)' : 'precomputed'}, p95 of ${result.samples} | ` +
    `${result.p95} ms (median ${result.median}, worst ${result.max}; ${result.answered} books answered) | `;
  if (live) return `${row}none: a moment after a change of the catalogue | |`;
  return `${row}≤ ${COVERAGE_P95_LIMIT_MS} ms | ${result.p95 <= COVERAGE_P95_LIMIT_MS ? 'met' : '**missed**'} |`;
}

/** The bench's rows for a marked word and one computation of the member's Spanish. */
export function markingMarkdown(marking, computation, engine, spanish) {
  return [
    `| \`PUT user/word-status\` of the most frequent Spanish word (in ${spanish.toLocaleString('en-US')} books), ${engine}, p95 of ${marking.samples} | ` +
      `${marking.p95} ms (median ${marking.median}, worst ${marking.max}) | none: the worst case of a status change (the word is in every book); the issue's target is the coverage's | |`,
    `| One computation of the member's coverage of every Spanish book (first request to its time in \`user/books\`), ${engine} | ${computation} ms | none: how fresh "Best for me" is after a change of the catalogue | |`,
  ];
}
