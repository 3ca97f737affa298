import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config';
import { ConfigError } from '../platform/config-error';
import { applyEnvFile } from '../platform/env-file';
import {
  abandonedMedia,
  copyMedia,
  copyRows,
  CopyRefused,
  COPIED_TABLES,
} from '../platform/database/copy-installation';
import { fillBookWords } from '../content/catalogue/repository/book-words';
import { openDatabase } from '../platform/database/prepare';
import { InstanceLock, InstanceLockedError } from '../platform/database/instance-lock';
import { sharedJwtSecret } from '../platform/database/prepare';
import { createStores } from '../platform/media/store/create-stores';

const USAGE =
  'Usage: npm run migrate-to -- --database-url postgres://user:password@host:5432/db [--media-store s3]\n' +
  '(with --media-store s3, the bucket is read from S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID,\n' +
  'S3_SECRET_ACCESS_KEY and S3_FORCE_PATH_STYLE, as the server reads them)';

/**
 * `npm run migrate-to`: moves the SQLite installation in STORAGE_DIR (rows and media) to PostgreSQL and,
 * with `--media-store s3`, to a bucket. Run it with the server stopped; docs/scaling.md has the steps.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'database-url': { type: 'string' }, 'media-store': { type: 'string' } },
  });
  if (!values['database-url']) throw new ConfigError('--database-url is required');
  // .env (or ENV_FILE) first, as the server reads it: STORAGE_DIR and the bucket may be set there.
  applyEnvFile();
  // The source is the SQLite installation and its folder: the bucket's settings are the target's, so
  // they are not "set but ignored" here (STRICT_CONFIG would refuse them).
  const sourceEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('S3_')),
  );
  const source = loadConfig({ ...sourceEnv, DATABASE_URL: '', MEDIA_STORE: 'local' });
  const target = loadConfig({
    ...process.env,
    DATABASE_URL: values['database-url'],
    MEDIA_STORE: values['media-store'] ?? 'local',
  });
  // The server must be stopped: rows it writes during the copy would be lost. Its instance lock says.
  const lock = holdInstallation(source.storageDir);
  const from = await openDatabase({ ...source, databaseUrl: null });
  const to = await openDatabase(target).catch(async (error: unknown) => {
    await from.destroy();
    throw error;
  });
  try {
    const rows = await copyRows(from, to);
    // Sessions survive the move: the copied secret is kept; an installation that never booted this
    // version still has its secret in STORAGE_DIR/jwt-secret, which is offered instead.
    await sharedJwtSecret(to, source.storageDir);
    for (const table of COPIED_TABLES) console.log(`${table}: ${rows[table]} row(s)`);
    // The search's words are not copied but written again from the copied books, as the server's boot
    // would (it finishes the job should this step be interrupted): the target is searchable at once.
    console.log(`book_words: ${await fillBookWords(to)} row(s), rebuilt from the books`);
    if (target.mediaStore.kind === 'local') {
      console.log('Media stays in STORAGE_DIR/media (no --media-store s3).');
    } else {
      const tempRoot = join(source.storageDir, 'tmp');
      mkdirSync(tempRoot, { recursive: true });
      const abandoned = await abandonedMedia(from);
      const media = createStores(source).media;
      const files = await copyMedia(media, createStores(target).media, tempRoot, abandoned);
      console.log(`media: ${files} file(s) copied to bucket ${target.mediaStore.bucket}`);
      if (abandoned.size)
        console.log(
          `media: ${abandoned.size} replaced or deleted file(s) left behind: nothing refers to them any more`,
        );
    }
    console.log('Done. Start the server with the same DATABASE_URL (and S3 settings) to use the new home.');
  } finally {
    await Promise.all([from.destroy(), to.destroy()]);
    lock.release();
  }
}

/** The SQLite installation's instance lock, held through the copy; refused while a server holds it. */
function holdInstallation(storageDir: string): InstanceLock {
  try {
    return InstanceLock.acquire({ databaseUrl: null, storageDir });
  } catch (error) {
    if (error instanceof InstanceLockedError)
      throw new CopyRefused(
        `a Lingonovel server is running on STORAGE_DIR ${storageDir}: stop it first, so that nothing is written ` +
          'during the copy (docs/scaling.md, "Moving an existing installation").',
      );
    throw error;
  }
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof CopyRefused;
  console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  if (known) console.error(USAGE);
  process.exit(1);
});
