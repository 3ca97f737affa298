import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config';
import { ConfigError } from '../platform/config-error';
import { BackupError, messageOf } from '../backup/archive-format';
import { createBackup } from '../backup/backup';

const USAGE = 'Usage: npm run backup -- --out FILE   (e.g. --out backups/lingonovel-2025-01-31.zip)';

/**
 * `npm run backup`: one archive of the installation in STORAGE_DIR (or DATABASE_URL and the bucket), made
 * beside the running server. docs/backups.md says what is in it.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (!values.out) throw new ConfigError('--out FILE is required');
  const started = Date.now();
  const { file, manifest, bytes, removedStale } = await createBackup(loadConfig(), values.out);
  for (const folder of removedStale)
    console.log(`Removed ${folder}, the work folder of an interrupted backup.`);
  const media = manifest.files.length - 1;
  console.log(
    `Backed up the ${manifest.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database (schema ` +
      `${manifest.schema.migration}) and ${media} media file(s), ${bytes} bytes, to ${file} ` +
      `in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  console.log(manifest.sessionSecret.note);
  if (manifest.missingMedia.length)
    console.warn(
      `Warning: ${manifest.missingMedia.length} media file(s) the database names were already missing from ` +
        `the media store and are not in the archive: ${manifest.missingMedia.slice(0, 5).join(', ')}` +
        (manifest.missingMedia.length > 5 ? ', …' : ''),
    );
}

main().catch((error: unknown) => {
  console.error(`Backup failed: ${messageOf(error)}`);
  if (error instanceof ConfigError) console.error(USAGE);
  else if (!(error instanceof BackupError)) console.error('Nothing was written to --out.');
  process.exit(1);
});
