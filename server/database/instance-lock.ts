import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { APP_CONFIG, type AppConfig } from '../config';

export const INSTANCE_LOCK_FILE = 'instance.lock';

/** Refuses the boot; main.ts prints its message as the one line of a failed start. */
export class InstanceLockedError extends Error {}

/**
 * With SQLite, one STORAGE_DIR serves one process: two would each keep their own page cache, rate limits
 * and media sweep. The lock is an exclusive SQLite lock on a small file of its own, held for the life of
 * the process: the operating system drops it if the process dies, so a crash never leaves it stale.
 * PostgreSQL installations run as many instances as they like (docs/scaling.md).
 */
@Injectable()
export class InstanceLock implements OnModuleInit, OnModuleDestroy {
  private lock: Database.Database | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onModuleInit(): void {
    if (this.config.databaseUrl) return;
    const lock = new Database(join(this.config.storageDir, INSTANCE_LOCK_FILE), { timeout: 0 });
    try {
      lock.pragma('locking_mode = EXCLUSIVE');
      lock.exec('BEGIN EXCLUSIVE; COMMIT;');
    } catch {
      lock.close();
      throw new InstanceLockedError(
        `another Lingonovel process already serves STORAGE_DIR ${this.config.storageDir}. With SQLite, ` +
          'one process serves one STORAGE_DIR; to run several instances use PostgreSQL (see docs/scaling.md).',
      );
    }
    this.lock = lock;
  }

  onModuleDestroy(): void {
    this.lock?.close();
    this.lock = null;
  }
}
