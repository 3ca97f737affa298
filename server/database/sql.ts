import type { DataSource, EntityManager } from 'typeorm';

type Queryable = DataSource | EntityManager;

const driverOf = (db: Queryable) => ('connection' in db ? db.connection : db).options.type;

/**
 * A raw query written once for both databases: `?` placeholders, which SQLite takes as they are and
 * PostgreSQL needs numbered (`$1`, `$2`, …). The SQL itself must be what both accept; no `?` may appear
 * inside a string literal.
 */
export function sql<T = unknown>(db: Queryable, text: string, params: unknown[] = []): Promise<T> {
  if (driverOf(db) !== 'postgres') return db.query<T>(text, params);
  let n = 0;
  return db.query<T>(
    text.replace(/\?/g, () => `$${++n}`),
    params,
  );
}
