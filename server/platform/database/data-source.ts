import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config';
import { ENTITIES, MIGRATIONS } from './schema';

export const DATABASE_FILE = 'lingonovel.sqlite';

export type DatabaseConfig = Pick<AppConfig, 'storageDir' | 'databaseUrl' | 'databasePoolSize'>;

const common = {
  entities: ENTITIES,
  migrations: MIGRATIONS,
  // Migrations never run on their own: runMigrations() (migrate.ts) runs them under a lock first.
  migrationsRun: false,
  migrationsTransactionMode: 'each' as const,
  synchronize: false,
  // Query errors reach the error filter, which logs real failures once; expected ones (a unique clash) stay quiet.
  logging: ['migration' as const],
};

/**
 * SQLite would create the file with the umask's mode (usually 0644, readable by every local account),
 * and gives its -wal and -shm files the database file's mode. Making the file empty and 0600 first keeps
 * all three private; an existing file keeps the mode its operator gave it. (Setting process.umask around
 * the open would also catch files made meanwhile by the rest of the process, with the wrong mode.)
 */
function createPrivateDatabaseFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * PostgreSQL when DATABASE_URL is set, else SQLite in STORAGE_DIR. On SQLite, WAL with synchronous=NORMAL
 * is about 45x faster for writes than the defaults and still durable across crashes of the process;
 * foreign keys make chapter and phrase deletes cascade.
 */
export function dataSourceOptions(config: DatabaseConfig): DataSourceOptions {
  if (config.databaseUrl)
    return {
      ...common,
      type: 'postgres',
      url: config.databaseUrl,
      // COUNT and SUM of integers are bigint, which node-pg returns as text; they are numbers on SQLite, and
      // an answer must not change type with the database. Ours stay far below 2^53.
      parseInt8: true,
      // Connections per instance: several instances share the server's max_connections.
      extra: { max: config.databasePoolSize },
    };
  const database = join(config.storageDir, DATABASE_FILE);
  createPrivateDatabaseFile(database);
  return {
    ...common,
    type: 'better-sqlite3',
    database,
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      // 32 MB of pages kept in the process (SQLite's default is 2 MB): the catalogue's browse and the
      // search words of 10,000 books stay in memory instead of being read again on every request.
      db.pragma('cache_size = -32000');
    },
  };
}

export const isPostgres = (dataSource: DataSource): boolean => dataSource.options.type === 'postgres';
