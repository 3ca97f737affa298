/**
 * The server's contexts and the walls between them (docs/architecture.md, "Contexts and their walls"), as
 * dependency-cruiser rules (.dependency-cruiser.cjs reads them; server/architecture.spec.ts runs them in
 * `npm test`, and plants a violation of each rule in a scratch tree to see it caught). Each context is a
 * set of paths; each rule forbids one direction. An exception names the files it lets through and why,
 * and fails the test once no file needs it.
 */

/** The server's contexts, bottom to top: each is a folder of server/, but operations (at the root). */
const CONTEXTS = {
  // What every part stands on: configuration, the database and its migrations, the media store, mail,
  // and small helpers with no knowledge of any feature.
  platform: ['^server/platform/'],
  // Who someone is and what they paid for: sign-up and sign-in, members, plans, reading-app passwords,
  // the first administrator.
  accounts: ['^server/accounts/'],
  // What learners read and look up, and who may have it: the catalogue with its entities, the access
  // rule, the dictionaries and word forms.
  content: ['^server/content/'],
  // The administrator's writes and what turns books into other shapes: imports, alignment, exports and
  // formats, OPDS, downloads.
  publishing: ['^server/publishing/'],
  // The learner's own work: reading, saved words and review, word status, lookups, practice, listening,
  // insights.
  learning: ['^server/learning/'],
  // Requests and answers: the Express chain, the page cache, errors, headers, rate limits, logging of requests.
  http: ['^server/http/'],
  // Starting and running the whole: the entry points, the module wiring, the tools (backup and restore,
  // the command line), the demo seed, health. They stay at the root, where deployments start them
  // (dist/app/server/main.js, dist/app/server/cli/).
  operations: ['^server/(backup|cli|seed|health)/', '^server/(main|app\\.module)\\.ts$'],
};

/** What a feature may take from the HTTP layer: the decorators and interceptors a route declares. */
const HTTP_FOR_ROUTES = [
  '^server/http/body/multipart\\.interceptor\\.ts$',
  '^server/http/rate-limit\\.ts$',
  '^server/http/memory-rate-limit\\.ts$',
  '^server/http/form-redirect\\.interceptor\\.ts$',
];

/** The tests' code: the API tests and their harness, specs beside the code, fixtures for specs. */
const TEST_CODE = ['^server/test/', '\\.spec\\.ts$', '\\.testing\\.ts$'];

/** The files of some contexts. */
const filesOf = (...names) => ({ path: names.flatMap((name) => CONTEXTS[name]) });

/**
 * Allowed exceptions, each with its reason: `from`'s files may import `to`'s across a wall, and nothing
 * else across it (a rule of its own, `rule`, keeps them to that).
 */
const EXCEPTIONS = {
  entityList: {
    from: '^server/platform/database/schema\\.ts$',
    to: '^server/(accounts|content|publishing|learning)/.+\\.entity\\.ts$',
    rule: 'the-entity-list-names-entities-only',
    reason:
      'TypeORM opens the database with every entity class in one list (platform/database/schema.ts): the list names them, nothing else of theirs.',
  },
  assembly: {
    from: '^server/http/create-app\\.ts$',
    to: '^server/(app\\.module|health/health-aliases)\\.ts$',
    rule: 'the-assembly-takes-the-module-and-health-aliases-only',
    reason:
      'http/create-app.ts assembles the process: it hands Nest the application module and mounts the health aliases (/healthz, /readyz) ahead of routing. The rest of http/ knows nothing of operations.',
  },
};

/**
 * `from`'s files may not import `to`'s, but for the exceptions given, each held to its own targets by a
 * rule of its own.
 */
const wall = (name, from, to, comment, exceptions = []) => [
  {
    name,
    comment,
    severity: 'error',
    from: { path: filesOf(from).path, pathNot: exceptions.map((exception) => exception.from) },
    to: filesOf(...to),
  },
  ...exceptions.map((exception) => ({
    name: exception.rule,
    comment: exception.reason,
    severity: 'error',
    from: { path: exception.from },
    to: { path: filesOf(...to).path, pathNot: exception.to },
  })),
];

const forbidden = [
  ...wall(
    'platform-stays-below',
    'platform',
    ['accounts', 'content', 'publishing', 'learning', 'http', 'operations'],
    'Platform code knows no feature: a feature changes, the platform under every other one does not.',
    [EXCEPTIONS.entityList],
  ),
  ...wall(
    'accounts-know-no-content',
    'accounts',
    ['content', 'publishing', 'learning', 'operations'],
    'Accounts and plans are asked by the rest, never the other way round (a plan rule lives in billing, not in reading).',
  ),
  ...wall(
    'content-under-the-features',
    'content',
    ['publishing', 'learning', 'operations'],
    'The catalogue, the access rule and the dictionaries are read by publishing and learning; they reach neither.',
  ),
  ...wall(
    'publishing-apart-from-learning',
    'publishing',
    ['learning', 'operations'],
    'Exports, downloads and feeds ask the access rule (content), not the reader’s code.',
  ),
  ...wall(
    'learning-apart-from-publishing',
    'learning',
    ['publishing', 'operations'],
    'The learner’s features take the catalogue’s shapes from content, not the administrator’s forms.',
  ),
  ...wall(
    'http-below-operations',
    'http',
    ['operations'],
    'The HTTP layer serves the features; starting, wiring and running the whole (main.ts, the CLI, backups, the seed) sits above it.',
    [EXCEPTIONS.assembly],
  ),
  {
    name: 'features-use-the-route-surface-of-http',
    comment:
      'A feature declares its routes with the HTTP layer’s decorators and interceptors; the rest of http/ (the page cache, the error filter, the Express chain) uses the features, not the other way round.',
    severity: 'error',
    from: filesOf('accounts', 'content', 'publishing', 'learning'),
    to: { path: CONTEXTS.http, pathNot: HTTP_FOR_ROUTES },
  },
  {
    name: 'migrations-stand-alone',
    comment:
      'A migration gives the same schema forever, so it never follows application code that changes: only TypeORM and platform/migrations/column-types.ts.',
    severity: 'error',
    from: { path: '^server/platform/migrations/' },
    to: { path: '^server/', pathNot: '^server/platform/migrations/' },
  },
  {
    name: 'server-stays-in-server',
    comment:
      'The server is built from server/ alone (server/tsconfig.json); what else it needs, it reads at run time from the built output.',
    severity: 'error',
    // The test harness (server/test/) shares the test tools of scripts/ with the browser journeys.
    from: { path: '^server/', pathNot: '^server/test/' },
    to: { dependencyTypes: ['local'], pathNot: '^(server|site)/' },
  },
  {
    name: 'server-never-imports-the-site',
    comment:
      'The CSP hashes of the site’s inline scripts come from the build (dist/web/inline-scripts.json).',
    severity: 'error',
    from: { path: '^server/' },
    to: { path: '^site/' },
  },
  {
    name: 'production-never-imports-tests',
    comment: 'Tests may use the application, never the reverse.',
    severity: 'error',
    from: { path: '^server/', pathNot: TEST_CODE },
    to: { path: TEST_CODE },
  },
  {
    name: 'no-cycles',
    comment:
      'Two files that import each other, even for types only, cannot be understood or moved apart. TypeORM entities that name each other in relations are the one kind let through.',
    severity: 'error',
    from: { path: '^server/', pathNot: ['\\.entity\\.ts$', '^server/test/'] },
    to: { circular: true },
  },
];

module.exports = { CONTEXTS, EXCEPTIONS, HTTP_FOR_ROUTES, forbidden };
