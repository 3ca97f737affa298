import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config';
import { ConfigError } from '../platform/config-error';
import { messageOf } from '../backup/archive-format';
import { restoreBackup } from '../backup/restore';

const USAGE = 'Usage: npm run restore -- --in FILE [--force]';

/**
 * `npm run restore`: puts an archive of `npm run backup` back into an empty STORAGE_DIR (or an empty
 * PostgreSQL database) and the configured media store. Stop the server first.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { in: { type: 'string' }, force: { type: 'boolean' } } });
  if (!values.in) throw new ConfigError('--in FILE is required');
  const config = loadConfig();
  const { manifest, mediaFiles, removedMedia } = await restoreBackup(config, values.in, {
    force: values.force,
  });
  console.log(
    `Restored the backup of ${manifest.createdAt} (schema ${manifest.schema.migration}): the database and ` +
      `${mediaFiles} media file(s)` +
      (removedMedia ? `; ${removedMedia} media file(s) of the replaced installation were deleted` : '') +
      '.',
  );
  console.log(manifest.sessionSecret.note);
  console.log('Start the server: it applies any migration newer than the archive at boot.');
}

main().catch((error: unknown) => {
  console.error(`Restore failed: ${messageOf(error)}`);
  if (error instanceof ConfigError) console.error(USAGE);
  process.exit(1);
});
