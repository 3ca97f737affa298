import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The specs npm test leaves out of the PostgreSQL pass (scripts/engine-free-specs.json) must not use what
 * makes the pass differ: the harness's server (startServer: the pass's database and bucket) or the
 * database helpers. A spec that starts using them belongs in both passes again.
 */
const LIST = JSON.parse(readFileSync(join(__dirname, 'engine-free-specs.json'), 'utf8')) as {
  specs: string[];
};
const ENGINE_BOUND =
  /\b(startServer|databaseUrlFor|testDatabaseConfig|onPostgres|TEST_DATABASE_URL|TEST_MEDIA_STORE)\b|from '\.\/database'/;

describe('the specs the PostgreSQL pass leaves out', () => {
  it.each(LIST.specs)('%s never reaches the database or bucket of the pass', (name) => {
    const source = readFileSync(join(__dirname, '..', 'server', 'test', `${name}.e2e-spec.ts`), 'utf8');
    expect(source.match(ENGINE_BOUND)?.[0] ?? null).toBeNull();
  });
});

/**
 * The specs it leaves out because other specs send their SQL there (scripts/sqlite-only-specs.json, whose
 * SQL npm test checks after the run: scripts/sql-coverage.mjs) must not test what differs by engine or
 * store: a spec that asks which engine or store it runs on belongs in both passes.
 */
const SQLITE_ONLY = JSON.parse(readFileSync(join(__dirname, 'sqlite-only-specs.json'), 'utf8')) as {
  specs: Record<string, string>;
};

describe('the specs the PostgreSQL pass leaves to SQLite', () => {
  it.each(Object.keys(SQLITE_ONLY.specs))(
    '%s exists and never asks which engine or store it runs on',
    (name) => {
      const source = readFileSync(join(__dirname, '..', 'server', 'test', `${name}.e2e-spec.ts`), 'utf8');
      expect(
        source.match(/\b(onPostgres|TEST_DATABASE_URL|TEST_MEDIA_STORE|mediaStoreConfig)\b/)?.[0] ?? null,
      ).toBeNull();
    },
  );

  it('names no spec twice', () => {
    const engineFree = new Set(LIST.specs);
    expect(Object.keys(SQLITE_ONLY.specs).filter((name) => engineFree.has(name))).toEqual([]);
  });
});
