import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config';
import { openDatabase } from '../platform/database/prepare';
import { createAdmin, isNewAdmin } from '../accounts/users/create-admin';
import { readPassword } from './read-password';

const USAGE =
  'Usage: npm run create-admin -- --email E --name N [--password P]\n' +
  "(without --password, a new administrator's is asked at a prompt, or read as the first line of standard input;\n" +
  'a member promoted keeps theirs)';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  });
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    // A new administrator needs a password: asked for (or read from standard input) when not given. A
    // member promoted keeps theirs unless one is given.
    const password = values.password ?? ((await isNewAdmin(db, values)) ? await readPassword() : undefined);
    const result = await createAdmin(db, { ...values, password });
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
