import type { OnModuleDestroy } from '@nestjs/common';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { AppConfig } from '../config';

export const INSTANCE_LOCK_FILE = 'instance.lock';

/** Refuses the boot; main.ts prints its message as the one line of a failed start. */
export class InstanceLockedError extends Error {}

/**
 * With SQLite, one STORAGE_DIR serves one process: two would each keep their own page cache, rate limits
 * and media sweep. The lock is an exclusive SQLite lock on a small file of its own, taken before anything
 * else (migrations included) and held for the life of the process: the operating system drops it if the
 * process dies, so a crash never leaves it stale. PostgreSQL installations run as many instances as they
 * like (docs/scaling.md) and take none.
 */
export class InstanceLock implements OnModuleDestroy {
  private constructor(private lock: Database.Database | null) {}

  static acquire(config: Pick<AppConfig, 'databaseUrl' | 'storageDir'>): InstanceLock {
    if (config.databaseUrl) return new InstanceLock(null);
    const lock = new Database(join(config.storageDir, INSTANCE_LOCK_FILE), { timeout: 0 });
    try {
      lock.pragma('locking_mode = EXCLUSIVE');
      lock.exec('BEGIN EXCLUSIVE; COMMIT;');
    } catch {
      lock.close();
      throw new InstanceLockedError(
        `another Lingonovel process already serves STORAGE_DIR ${config.storageDir}. With SQLite, ` +
          'one process serves one STORAGE_DIR; to run several instances use PostgreSQL (see docs/scaling.md).',
      );
    }
    return new InstanceLock(lock);
  }

  release(): void {
    this.lock?.close();
    this.lock = null;
  }

  /** Nest calls this when the application closes (the lock is given to it as a provider). */
  onModuleDestroy(): void {
    this.release();
  }
}
