// The SQL each API spec sends, folded to its shape, so that npm test can prove that the specs it runs on
// SQLite only send nothing the PostgreSQL pass does not send too (scripts/sql-coverage.mjs). CommonJS:
// Jest's setup (server/test/sql-log.setup.ts) and the app a spec runs in a child process
// (server/test/app-probe.ts) both load it.
const { appendFileSync, mkdirSync } = require('node:fs');
const { basename, join } = require('node:path');

/**
 * One statement's shape: the same query builder call with other values gives the same line. Placeholders,
 * quoted literals and numbers become `?`, a list of them one `?`, several rows of VALUES one row.
 */
function sqlShape(sql) {
  return sql
    .replace(/\s+/g, ' ')
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\$\d+|\b\d+(?:\.\d+)?\b/g, '?')
    .replace(/\(\s*\?(?:\s*,\s*\?)*\s*\)/g, '(?)')
    .replace(/(VALUES \(\?\))(?:\s*,\s*\(\?\))+/gi, '$1')
    .trim();
}

/**
 * Records the shapes a spec file sends through one of TypeORM's query runners (the class), each once, in
 * `<dir>/<spec file>.sql`. Appended as they come, so a statement sent while the app closes still counts,
 * and a child process's app can add to its spec's file.
 */
function logSqlShapes(runner, dir, specPath) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${basename(specPath)}.sql`);
  const seen = new Set();
  const query = runner.prototype.query;
  runner.prototype.query = function (sql, ...rest) {
    const shape = sqlShape(sql);
    if (!seen.has(shape)) {
      seen.add(shape);
      appendFileSync(file, `${shape}\n`);
    }
    return query.call(this, sql, ...rest);
  };
}

/** Both engines' query runners, as this Node's `typeorm` has them (resolved from the project's root). */
function logBothEngines(dir, specPath) {
  const root = join(__dirname, '..');
  const runner = (path) => require(require.resolve(`typeorm/driver/${path}`, { paths: [root] }));
  logSqlShapes(runner('better-sqlite3/BetterSqlite3QueryRunner').BetterSqlite3QueryRunner, dir, specPath);
  logSqlShapes(runner('postgres/PostgresQueryRunner').PostgresQueryRunner, dir, specPath);
}

module.exports = { sqlShape, logSqlShapes, logBothEngines };
