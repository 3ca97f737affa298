// The API specs that npm test runs on SQLite only because every statement they send is sent by a spec
// that the PostgreSQL pass runs too (scripts/sqlite-only-specs.json). This is the check that keeps that
// true: the SQLite pass records each spec file's SQL shapes (scripts/sql-shapes.cjs), and a shape that
// only a SQLite-only spec sends fails the run. The same code sends the same statement on either engine
// (TypeORM writes each engine's dialect), so a shape some PostgreSQL-pass spec sends on SQLite is sent
// by that spec on PostgreSQL too.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SUFFIX = '.e2e-spec.ts.sql';

/** The spec names (server/test/<name>.e2e-spec.ts) and the shapes each sent, from the log folder. */
export function readShapes(dir) {
  if (!existsSync(dir)) return new Map();
  return new Map(
    readdirSync(dir)
      .filter((file) => file.endsWith(SUFFIX))
      .map((file) => [
        file.slice(0, -SUFFIX.length),
        new Set(readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean)),
      ]),
  );
}

/**
 * What is wrong with the list, as lines to print: a listed spec that recorded nothing (it did not run, or
 * the log is broken), and each shape that only listed specs send, with the specs that send it.
 * `notCovering` holds the specs whose shapes prove nothing about PostgreSQL: those the pass leaves out,
 * and those it runs with some tests skipped (their shapes on SQLite may come from those tests).
 */
export function coverageProblems(shapes, sqliteOnly, notCovering) {
  const problems = sqliteOnly
    .filter((name) => !shapes.get(name)?.size)
    .map((name) => `${name}: no SQL recorded (did it run? is server/test/sql-log.setup.ts installed?)`);
  const onPostgres = new Set();
  for (const [name, sent] of shapes)
    if (!notCovering.includes(name)) for (const shape of sent) onPostgres.add(shape);
  const onlyHere = new Map();
  for (const name of sqliteOnly)
    for (const shape of shapes.get(name) ?? [])
      if (!onPostgres.has(shape)) onlyHere.set(shape, [...(onlyHere.get(shape) ?? []), name]);
  for (const [shape, names] of onlyHere) problems.push(`${names.join(', ')}: ${shape}`);
  return problems;
}
