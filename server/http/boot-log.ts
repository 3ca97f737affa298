import { stdoutLines } from './log-output';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../platform/config';
import { DATABASE_FILE } from '../platform/database/data-source';
import { PROJECT_ROOT } from '../platform/paths';

/** The version in package.json: what an operator quotes in a bug report. */
function version(): string {
  try {
    return (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

/** Where the database is, without its password. */
function database(config: AppConfig): string {
  if (!config.databaseUrl) return `SQLite (${join(config.storageDir, DATABASE_FILE)})`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL (${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname})`;
}

function mediaStore(config: AppConfig): string {
  const store = config.mediaStore;
  if (store.kind === 'local') return `a folder (${join(config.storageDir, 'media')})`;
  return `the S3 bucket ${store.bucket}${store.endpoint ? ` at ${new URL(store.endpoint).host}` : ''}`;
}

/** One line at boot naming what this process runs on: version, database engine, media store. */
export function bootLine(config: AppConfig): string {
  return `Lingonovel ${version()} on Node ${process.versions.node}: database ${database(config)}, media in ${mediaStore(config)}`;
}

/** One line when the process stops, after every connection and timer is closed. */
@Injectable()
export class ShutdownLog implements OnApplicationShutdown {
  onApplicationShutdown(signal?: string): void {
    new Logger('Lingonovel').log(`Stopped${signal ? ` on ${signal}` : ''}`);
    // Nest ends a signalled process by raising the signal again, which skips the 'exit' event that writes
    // what the log still holds (http/log-output.ts): written here, the last line included.
    stdoutLines().flush();
  }
}
