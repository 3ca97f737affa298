import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { logSqlShapes, sqlShape } from './sql-shapes.cjs';

/**
 * The proof that the specs npm test runs on SQLite only send no SQL the PostgreSQL pass misses: the
 * shapes (scripts/sql-shapes.cjs) and the check on them (scripts/sql-coverage.mjs, ESM: a child Node
 * imports it, as npm test does).
 */
const MODULE = join(__dirname, 'sql-coverage.mjs');

function problems(dir: string, sqliteOnly: string[], notOnPostgres = sqliteOnly): string[] {
  const script = `const c = await import(${JSON.stringify(MODULE)});
    console.log(JSON.stringify(c.coverageProblems(c.readShapes(${JSON.stringify(dir)}), ${JSON.stringify(
      sqliteOnly,
    )}, ${JSON.stringify(notOnPostgres)})));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as string[];
}

describe('SQL shapes', () => {
  it('gives the same shape to the same statement with other values, and another to another statement', () => {
    expect(
      sqlShape(`SELECT "b"."id" FROM "book" "b" WHERE "b"."code" = $1 AND "b"."id" IN ($2, $3, $4)`),
    ).toBe(sqlShape(`SELECT "b"."id"  FROM "book" "b"\n WHERE "b"."code" = ? AND "b"."id" IN (?)`));
    expect(sqlShape(`INSERT INTO "t"("a", "b") VALUES (1, 'it''s'), (2, 'x')`)).toBe(
      sqlShape(`INSERT INTO "t"("a", "b") VALUES (?, ?)`),
    );
    expect(sqlShape(`SELECT * FROM "t" LIMIT 24 OFFSET 48`)).toBe('SELECT * FROM "t" LIMIT ? OFFSET ?');
    expect(sqlShape(`SELECT "a" FROM "t" ORDER BY "a" ASC`)).not.toBe(
      sqlShape(`SELECT "a" FROM "t" ORDER BY "a" DESC`),
    );
    expect(sqlShape(`SELECT "a" FROM "t2"`)).not.toBe(sqlShape(`SELECT "a" FROM "t"`));
  });
});

describe('the check that SQLite-only specs send nothing the PostgreSQL pass misses', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'lingonovel-sql-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Records what `run` sends through TypeORM on a real SQLite database, as spec `<name>` would. */
  async function record(name: string, run: (db: DataSource) => Promise<unknown>) {
    const db = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    await db.initialize();
    const runner = db.createQueryRunner().constructor as { prototype: { query: unknown } };
    const query = runner.prototype.query;
    try {
      logSqlShapes(runner, dir, `/repo/server/test/${name}.e2e-spec.ts`);
      await run(db);
    } finally {
      runner.prototype.query = query;
      await db.destroy();
    }
  }

  it('records each shape once per spec, as TypeORM sends it', async () => {
    await record('books', async (db) => {
      await db.query('CREATE TABLE "book" ("id" integer, "title" text)');
      for (const id of [1, 2, 3]) await db.query('INSERT INTO "book" VALUES (?, ?)', [id, `t${id}`]);
      await db
        .createQueryBuilder()
        .select('b.title')
        .from('book', 'b')
        .where('b.id IN (:...ids)', { ids: [1, 2] })
        .getRawMany();
    });
    const lines = readFileSync(join(dir, 'books.e2e-spec.ts.sql'), 'utf8').trim().split('\n');
    expect(lines.filter((line) => line.startsWith('INSERT'))).toEqual(['INSERT INTO "book" VALUES (?)']);
    expect(lines).toContain('SELECT b.title FROM "book" "b" WHERE b.id IN (?)');
  });

  it("records an app's SQL in a Node of its own, as a spec's child process does", () => {
    const script = `require(${JSON.stringify(join(__dirname, 'sql-shapes.cjs'))}).logBothEngines(${JSON.stringify(dir)}, '/repo/server/test/child.e2e-spec.ts');
      const { DataSource } = require('typeorm');
      const db = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
      db.initialize().then(() => db.query('SELECT 42 AS "answer"')).then(() => db.destroy());`;
    const run = spawnSync(process.execPath, ['-e', script], { cwd: join(__dirname, '..'), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(readFileSync(join(dir, 'child.e2e-spec.ts.sql'), 'utf8')).toContain('SELECT ? AS "answer"\n');
  });

  it('passes when every shape of a SQLite-only spec is sent by a spec the PostgreSQL pass runs', async () => {
    await record('both', (db) => db.query('SELECT 1 AS "one"'));
    await record('fast', (db) => db.query('SELECT 2 AS "one"'));
    expect(problems(dir, ['fast'])).toEqual([]);
  });

  it('names a shape that only SQLite-only specs send, and each spec that sends it', async () => {
    await record('both', (db) => db.query('SELECT 1 AS "one"'));
    await record('fast', (db) => db.query('SELECT 1 AS "two"'));
    await record('slow', (db) => db.query('SELECT 1 AS "two"'));
    expect(problems(dir, ['fast', 'slow'])).toEqual(['fast, slow: SELECT ? AS "two"']);
  });

  it('does not count a spec the PostgreSQL pass leaves out, or runs in part, as covering', async () => {
    await record('engine-free', (db) => db.query('SELECT 1 AS "two"'));
    await record('fast', (db) => db.query('SELECT 1 AS "two"'));
    expect(problems(dir, ['fast'], ['fast', 'engine-free'])).toEqual(['fast: SELECT ? AS "two"']);
  });

  it('fails for a SQLite-only spec that recorded nothing', async () => {
    await record('both', (db) => db.query('SELECT 1 AS "one"'));
    expect(problems(dir, ['fast'])).toEqual([
      'fast: no SQL recorded (did it run? is server/test/sql-log.setup.ts installed?)',
    ]);
  });
});
