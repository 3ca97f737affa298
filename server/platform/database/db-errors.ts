import { QueryFailedError } from 'typeorm';

/**
 * Database errors told apart by the driver's code, never by message text (messages differ between
 * SQLite and PostgreSQL, and a missed match becomes a 500).
 */
function driverCode(error: unknown): string | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  return (error.driverError as { code?: unknown } | undefined)?.code as string | undefined;
}

const UNIQUE = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', '23505']);
const FOREIGN_KEY = new Set(['SQLITE_CONSTRAINT_FOREIGNKEY', '23503']);

export const isUniqueViolation = (error: unknown): boolean => UNIQUE.has(driverCode(error) ?? '');
export const isForeignKeyViolation = (error: unknown): boolean => FOREIGN_KEY.has(driverCode(error) ?? '');
