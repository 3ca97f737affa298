/**
 * A date read back from a raw query. PostgreSQL's driver gives Date objects. SQLite gives the text TypeORM
 * wrote, 'YYYY-MM-DD HH:MM:SS.SSS' in UTC, which `new Date()` would read in the server's own time zone.
 */
export function dateFromDb(value: Date | string): Date {
  if (value instanceof Date) return value;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}
