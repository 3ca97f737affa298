import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from './platform/config';
import { ConfigError } from './platform/config-error';
import { bootLine } from './http/boot-log';
import { createApp } from './http/create-app';
import { SiteNotBuiltError } from './http/pages';
import { DemoSeedService } from './seed/demo-seed.service';
import { InstanceLockedError } from './platform/database/instance-lock';
import { SchemaTooNewError } from './platform/database/schema-guard';
import { SetupService } from './accounts/setup/setup.service';

async function main(): Promise<void> {
  const demo = process.argv.includes('--demo');
  const config = loadConfig();
  const app = await createApp(config, { pages: true });
  const credentials = demo ? await app.get(DemoSeedService).seedOnce() : null;
  // Before listening: a setup request never meets an installation whose code is not yet stored.
  const firstRun = await app.get(SetupService).atBoot();
  await app.listen(config.port, config.host);

  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const logger = new Logger('Lingonovel');
  logger.log(bootLine(config));
  if (config.envFile) logger.log(`Settings read from ${config.envFile} (the environment's own win)`);
  for (const warning of config.warnings) logger.warn(warning);
  if (credentials) logger.log(`Demo administrator: ${credentials.email} / ${credentials.password}`);
  if (firstRun.kind === 'created')
    logger.log(`Created the first administrator ${firstRun.email} (INIT_ADMIN_EMAIL)`);
  if (firstRun.kind === 'code') {
    logger.warn('No administrator exists yet: create the first one at the address below with this code.');
    logger.warn(`Setup code: ${firstRun.code}`);
    logger.warn(`Open ${config.publicUrl}/setup (or run npm run create-admin)`);
  }
  // Last: tests and scripts wait for this line to know the server, and what it printed, is ready.
  logger.log(`Listening on http://${config.host}:${port} (public URL ${config.publicUrl})`);
}

/**
 * Exit status of a start refused until a person acts (a bad setting, a newer schema, no build): 78, as
 * sysexits.h's EX_CONFIG, so that a service manager does not restart it in a loop (deploy/lingonovel.service).
 * Anything else (a database not reachable yet, another process on the folder) exits 1 and may be retried.
 */
const REFUSED_EXIT = 78;

main().catch((error: unknown) => {
  const refused =
    error instanceof ConfigError || error instanceof SiteNotBuiltError || error instanceof SchemaTooNewError;
  if (refused || error instanceof InstanceLockedError) {
    console.error(`Lingonovel cannot start: ${error.message}`);
  } else {
    console.error('Lingonovel cannot start:', error);
  }
  process.exit(refused ? REFUSED_EXIT : 1);
});
