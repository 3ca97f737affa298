import type { DataSource } from 'typeorm';
import { MIGRATIONS } from './schema';

/** A database a newer build migrated: this build must not write into a schema it does not understand. */
export class SchemaTooNewError extends Error {}

/** The migrations this build knows, oldest first, by the name TypeORM records (its `name`, or its class's). */
export const KNOWN_MIGRATIONS: string[] = MIGRATIONS.map(
  (migration) => new migration().name ?? migration.name,
);

/**
 * Refuses a database with migrations this build does not know (docs/upgrading.md, "Going back"): after a
 * rollback of the code, the older build would otherwise boot, answer healthy and write into tables it does
 * not know. Run before any migration and by every command-line tool, under the migration lock on
 * PostgreSQL. A database without the migrations table (a new one) passes.
 */
export async function guardSchema(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    if (!(await runner.hasTable('migrations'))) return;
    const rows = (await runner.query('SELECT name FROM migrations ORDER BY timestamp')) as Array<{
      name: string;
    }>;
    const known = new Set(KNOWN_MIGRATIONS);
    const unknown = rows.map((row) => String(row.name)).filter((name) => !known.has(name));
    if (!unknown.length) return;
    throw new SchemaTooNewError(
      `the database has ${unknown.length} migration(s) this build does not know (its newest: ` +
        `${unknown[unknown.length - 1]}); this build knows up to ${KNOWN_MIGRATIONS[KNOWN_MIGRATIONS.length - 1]}. ` +
        'A newer version of Lingonovel upgraded it: run that version again (git checkout it, then npm run build), ' +
        'or restore a backup made with this one (docs/upgrading.md).',
    );
  } finally {
    await runner.release();
  }
}
