import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase } from '../database/data-source';
import { createAdmin } from '../users/create-admin';

const USAGE = 'Usage: npm run create-admin -- --email E --password P --name N';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  });
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    const result = await createAdmin(db, values);
    console.log(result.message);
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  console.error(USAGE);
  process.exit(1);
});
