import type { QueryRunner, TableColumnOptions } from 'typeorm';

/**
 * Column types that differ between the two databases. TypeORM's SQLite driver has no `timestamp` and
 * PostgreSQL has no `datetime`; PostgreSQL gets `timestamptz`, since node-pg would read a plain `timestamp`
 * in the server's local time zone.
 */
export function columnTypes(db: QueryRunner): { time: string; real: string } {
  const postgres = db.connection.driver.options.type === 'postgres';
  return { time: postgres ? 'timestamptz' : 'datetime', real: postgres ? 'double precision' : 'real' };
}

/** An integer primary key the database numbers: AUTOINCREMENT on SQLite, a sequence (serial) on PostgreSQL. */
export const ID_COLUMN: TableColumnOptions = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
};

/** A timestamp column that defaults to the moment of the insert, in UTC on both databases. */
export const timestampNow = (time: string, name: string): TableColumnOptions => ({
  name,
  type: time,
  default: 'CURRENT_TIMESTAMP',
});
