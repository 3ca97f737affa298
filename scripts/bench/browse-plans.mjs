// The query plans of the catalogue's browse (server/content/catalogue/repository/book-browse.ts): the built
// browseBooks runs on a connection of its own with a logger that keeps each statement, then each is
// explained with its parameters, on the database the server uses. Read-only.
import 'reflect-metadata';
import { join } from 'node:path';

/** The browses whose plans are shown: the default view, filters, a search, the other sorts. */
export const PLAN_CASES = [
  ['the newest books (/books)', ''],
  ['a language and a level', 'lang=es&cefr=A2'],
  ['a search within a language', 'lang=fr&q=kalo'],
  ['a search of every book, two words', 'q=cartas ren'],
  ['by title, one difficulty, page 5', 'difficulty=Hard&sort=title&page=5'],
  ['shortest first, one level', 'cefr=B1&sort=shortest'],
];

/** Answers, per case, each statement browseBooks ran with its plan. */
export async function explainBrowse(root, { storageDir, databaseUrl }) {
  const app = (path) => import(join(root, 'dist/app/server', path));
  const { DataSource } = await import('typeorm');
  const { dataSourceOptions } = await app('platform/database/data-source.js');
  const { browseBooks } = await app('content/catalogue/repository/book-browse.js');
  const { parseBrowseQuery } = await app('content/catalogue/browse-query.js');

  let recording = null;
  const logger = {
    logQuery: (query, parameters) => recording?.push({ query, parameters: parameters ?? [] }),
    logQueryError: () => {},
    logQuerySlow: () => {},
    logSchemaBuild: () => {},
    logMigration: () => {},
    log: () => {},
  };
  const db = new DataSource({
    ...dataSourceOptions({ storageDir, databaseUrl, databasePoolSize: 1 }),
    logging: ['query'],
    logger,
  });
  await db.initialize();
  const explain = databaseUrl ? 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)' : 'EXPLAIN QUERY PLAN';
  const plans = [];
  try {
    for (const [label, query] of PLAN_CASES) {
      const parsed = parseBrowseQuery(Object.fromEntries(new URLSearchParams(query)), { perPage: true });
      if (!parsed.ok) throw new Error(`invalid plan case ${query}`);
      recording = [];
      await browseBooks(db.manager, parsed.filter);
      const statements = recording;
      recording = null;
      const explained = [];
      for (const { query: sql, parameters } of statements) {
        const rows = await db.query(`${explain} ${sql}`, parameters);
        const plan = databaseUrl ? rows.map((row) => row['QUERY PLAN']).join('\n') : sqlitePlan(rows);
        explained.push({ sql, parameters, plan });
      }
      plans.push({ label, query, statements: explained });
    }
  } finally {
    await db.destroy();
  }
  return plans;
}

/** SQLite's plan rows as the sqlite3 shell draws them: a tree by parent id. */
function sqlitePlan(rows) {
  const depth = new Map([[0, -1]]);
  return rows
    .map((row) => {
      const level = (depth.get(row.parent) ?? -1) + 1;
      depth.set(row.id, level);
      return `${'  '.repeat(level)}${row.detail}`;
    })
    .join('\n');
}

/** docs/catalogue-plans.md: each case's statements and their plans on both databases. */
export function plansMarkdown(byDatabase, books, date) {
  const lines = [
    "# The catalogue's query plans",
    '',
    `Written by \`npm run bench\` on ${date}, at ${books.toLocaleString('en-US')} books (the bench's catalogue: docs/benchmarks.md).`,
    'A browse of the catalogue (`GET /api/v1/guest/books`, `/books`) without a search runs the five statements',
    'of `server/content/catalogue/repository/book-browse.ts`: the page of books, their total, and one count per facet',
    '(language, level, difficulty), each facet with the other filters applied. A search runs two',
    "(`searchBooks`): the matching books' ids, filter values and sort keys, found through `book_words`, then",
    "the page's books by id. Below, for a few browses,",
    "every statement with its plan: SQLite's `EXPLAIN QUERY PLAN` (no `ANALYZE` has run: the application",
    "never runs it) and PostgreSQL's `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)` after an `ANALYZE`, as",
    'autovacuum does on a live server. The SQL is shown as SQLite gets it; PostgreSQL gets the same with',
    '`$1`… for the parameters.',
    '',
    'What the plans show:',
    '',
    '- The default view reads `IDX_books_created_at` (created_at, id) backwards and the title order',
    '  `IDX_books_title_key` (title_key, id) forwards, stopping after a page: no sort.',
    '- A language or a level narrows through `IDX_books_language` or `IDX_books_cefr` (PostgreSQL combines',
    '  both in a bitmap), then the matching rows (a few thousand at most) are sorted for the page: a',
    '  temporary B-tree on SQLite, a top-N heapsort on PostgreSQL. The "shortest" order always sorts.',
    '- A count without a filter on the other facets reads the whole table (PostgreSQL) or a covering index',
    '  (SQLite): a few milliseconds at this size.',
    "- A search word is one range of `book_words`' primary key (word, book_id): `word >= ? AND word < ?`,",
    '  the word and the word followed by U+10FFFF (the last character of the second parameter), compared',
    '  byte by byte on both databases. Each word reads only the index entries of the words that start with',
    "  it; the books found are read by their primary key. The search's filters, facet counts and order are",
    '  worked out in the server from those rows, and the page is read by id: its time grows with the number',
    `  of books found, not with the catalogue's ${books.toLocaleString('en-US')}.`,
    '',
    'The execution times PostgreSQL reports are a small part of the server times in docs/benchmarks.md: the',
    'rest is the round trips (five, a search two), mapping rows, the JSON answer and the HTTP chain, on a',
    'shared machine.',
    '',
  ];
  for (const [index, [label, query]] of PLAN_CASES.entries()) {
    lines.push(`## ${label}: \`${query ? `?${query}` : '(no query)'}\``, '');
    const statements = byDatabase[0].plans[index].statements;
    statements.forEach((statement, i) => {
      lines.push(`### Statement ${i + 1}`, '', '```sql', statement.sql, '```', '');
      for (const { name, plans } of byDatabase) {
        const own = plans[index].statements[i];
        lines.push(
          `${name}, parameters \`${JSON.stringify(own.parameters)}\`:`,
          '',
          '```',
          own.plan,
          '```',
          '',
        );
      }
    });
  }
  return lines.join('\n');
}
