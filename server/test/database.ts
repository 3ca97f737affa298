import { createHash } from 'node:crypto';
import { Client } from 'pg';
import type { DatabaseConfig } from '../platform/database/data-source';

/**
 * The API suite runs twice: on SQLite, and on the real PostgreSQL cluster that scripts/test.mjs starts,
 * whose URL it passes as TEST_DATABASE_URL. Each storage folder gets its own database, named after the
 * folder, so a test that restarts a server on the same folder finds the same data.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? null;
export const onPostgres = TEST_DATABASE_URL !== null;

const created = new Set<string>();

/** The PostgreSQL database for a storage folder (created when new), or null on SQLite. */
export async function databaseUrlFor(storageDir: string): Promise<string | null> {
  if (!TEST_DATABASE_URL) return null;
  const name = `t_${createHash('sha256').update(storageDir).digest('hex').slice(0, 20)}`;
  const url = new URL(TEST_DATABASE_URL);
  if (!created.has(name)) {
    const admin = new Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${name}"`);
    } finally {
      await admin.end();
    }
    created.add(name);
  }
  url.pathname = `/${name}`;
  return url.toString();
}

/** The database settings of a test on the current engine, for tools that open the database directly. */
export async function testDatabaseConfig(storageDir: string): Promise<DatabaseConfig> {
  return { storageDir, databaseUrl: await databaseUrlFor(storageDir), databasePoolSize: 4 };
}

/** The application's tables, on either engine. */
export async function tableNames(dataSource: import('typeorm').DataSource): Promise<string[]> {
  const rows = await dataSource.query<Array<{ name: string }>>(
    dataSource.options.type === 'postgres'
      ? `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`
      : `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
  );
  // Sorted here too: a PostgreSQL cluster's collation may order "_" apart from the bytes.
  return rows.map((row) => row.name).sort();
}
