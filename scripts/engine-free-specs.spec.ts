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
