import type { DataSource, EntityManager, InsertQueryBuilder, ObjectLiteral, QueryResult } from 'typeorm';

type Queryable = DataSource | EntityManager;

const driverOf = (db: Queryable) => ('connection' in db ? db.connection : db).options.type;

/**
 * A raw query written once for both databases: `?` placeholders, which SQLite takes as they are and
 * PostgreSQL needs numbered (`$1`, `$2`, …). The SQL itself must be what both accept; no `?` may appear
 * inside a string literal.
 */
export function sql<T = unknown>(db: Queryable, text: string, params: unknown[] = []): Promise<T> {
  return db.query<T>(placeholders(db, text), params);
}

/**
 * An UPDATE or DELETE written as for sql(), answering how many rows it changed: the one answer both
 * drivers give alike (their raw answers differ). A conditional UPDATE so makes a claim that only one of
 * several racing requests wins, on PostgreSQL's pool as on SQLite.
 */
export function changedRows(db: Queryable, text: string, params: unknown[] = []): Promise<number> {
  return affectedBy(db, placeholders(db, text), params);
}

/** Runs a statement already in the driver's own form, on the transaction of `db` if it is one. */
async function affectedBy(db: Queryable, text: string, params: unknown[]): Promise<number> {
  const manager = 'connection' in db ? db : db.manager;
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const result: QueryResult = await runner.query(text, params, true);
    return result.affected ?? 0;
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}

function placeholders(db: Queryable, text: string): string {
  if (driverOf(db) !== 'postgres') return text;
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/**
 * Runs an INSERT built with TypeORM's query builder, answering how many rows it wrote: with orIgnore(),
 * those that met no unique index. The count of the database itself, so that of two requests racing with
 * the same rows, one is told it wrote them and the other that they were there already.
 */
export function insertedRows<T extends ObjectLiteral>(
  db: Queryable,
  builder: InsertQueryBuilder<T>,
): Promise<number> {
  const [text, params] = builder.getQueryAndParameters();
  return affectedBy(db, text, params);
}

/**
 * Lets the event loop answer other requests: SQLite's driver runs each query synchronously, so a loop of
 * awaited queries (a background computation) would otherwise hold every request until it ends.
 */
export const letOthersIn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
