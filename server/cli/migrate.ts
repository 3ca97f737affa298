import 'reflect-metadata';
import { loadConfig } from '../platform/config';
import { dataSourceOptions } from '../platform/database/data-source';
import { runMigrations } from '../platform/database/prepare';
import { DataSource } from 'typeorm';

/**
 * `npm run migrate`: applies the pending migrations and stops, for operators who migrate before they roll
 * out new instances. The server does the same at boot, under the same lock, so either way is safe.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = new DataSource(dataSourceOptions(config));
  await db.initialize();
  try {
    const applied = await runMigrations(db);
    console.log(
      applied.length
        ? `Applied ${applied.length} migration(s): ${applied.join(', ')}`
        : 'The database is up to date: no migration to apply.',
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
