import type { DataSource, EntityManager } from 'typeorm';

/**
 * A date read back from a raw query. PostgreSQL's driver gives Date objects. SQLite gives the text TypeORM
 * wrote, 'YYYY-MM-DD HH:MM:SS.SSS' in UTC, which `new Date()` would read in the server's own time zone.
 */
export function dateFromDb(value: Date | string): Date {
  if (value instanceof Date) return value;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}

/**
 * A date as a raw query's parameter, written as TypeORM writes the column: a Date for PostgreSQL's driver,
 * 'YYYY-MM-DD HH:MM:SS.SSS' in UTC for SQLite (whose text then sorts and compares as time does).
 */
export function dateToDb(db: DataSource | EntityManager, date: Date): Date | string {
  const type = ('connection' in db ? db.connection : db).options.type;
  return type === 'postgres' ? date : date.toISOString().replace('T', ' ').replace('Z', '');
}
