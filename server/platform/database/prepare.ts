import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config';
import { dataSourceOptions, isPostgres, type DatabaseConfig } from './data-source';
import { guardSchema } from './schema-guard';

/** Any fixed number: every instance of every version takes the same PostgreSQL advisory lock. */
const MIGRATION_LOCK = 4_242_017;
const JWT_SECRET_KEY = 'jwt_secret';
/** Where versions before the shared secret kept the generated one. */
export const LEGACY_JWT_SECRET_FILE = 'jwt-secret';

/**
 * Applies the pending migrations, each in its own transaction, once the schema guard found no migration
 * this build does not know (schema-guard.ts). On PostgreSQL several instances may boot at
 * once, so they queue on an advisory lock: the first applies each migration, the others then find none
 * pending. (SQLite has one instance per STORAGE_DIR, and its own file lock serialises writers.)
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  if (!isPostgres(dataSource)) {
    await guardSchema(dataSource);
    return names(await dataSource.runMigrations({ transaction: 'each' }));
  }
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await guardSchema(dataSource);
      return names(await dataSource.runMigrations({ transaction: 'each' }));
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await lock.release();
  }
}

const names = (migrations: Array<{ name: string }>) => migrations.map((migration) => migration.name);

/**
 * The generated session secret lives in the database, so every instance signs and checks tokens with the
 * same one. Instances booting together agree: each offers a secret, the first insert wins, and all read
 * back the winner. The secret an older version kept in STORAGE_DIR/jwt-secret is the one offered, so an
 * upgrade keeps every session.
 */
export async function sharedJwtSecret(dataSource: DataSource, storageDir: string): Promise<string> {
  const legacy = join(storageDir, LEGACY_JWT_SECRET_FILE);
  const offered = existsSync(legacy)
    ? readFileSync(legacy, 'utf8').trim()
    : randomBytes(32).toString('base64url');
  const param = (n: number) => (isPostgres(dataSource) ? `$${n}` : '?');
  await dataSource.query(
    `INSERT INTO "app_meta" ("key", "value") VALUES (${param(1)}, ${param(2)}) ON CONFLICT ("key") DO NOTHING`,
    [JWT_SECRET_KEY, offered],
  );
  const rows = await dataSource.query<Array<{ value: string }>>(
    `SELECT "value" FROM "app_meta" WHERE "key" = ${param(1)}`,
    [JWT_SECRET_KEY],
  );
  return rows[0].value;
}

/**
 * What the database needs before the application starts: its migrations, and the shared session secret
 * when JWT_SECRET is not configured (written into `config`, which every signer reads).
 */
export async function prepareDatabase(config: AppConfig & DatabaseConfig): Promise<void> {
  const dataSource = new DataSource(dataSourceOptions(config));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
    if (!config.jwtSecret) config.jwtSecret = await sharedJwtSecret(dataSource, config.storageDir);
  } finally {
    await dataSource.destroy();
  }
}

/** For the command-line tools, which need the database (migrated) but not the HTTP server. */
export async function openDatabase(config: DatabaseConfig): Promise<DataSource> {
  const dataSource = new DataSource(dataSourceOptions(config));
  await dataSource.initialize();
  await runMigrations(dataSource);
  return dataSource;
}
