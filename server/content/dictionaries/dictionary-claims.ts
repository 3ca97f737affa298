import { ConflictException, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import { sql } from '../../platform/database/sql';

/** The first key of PostgreSQL's two-key advisory locks, so that ours meet no other feature's ("LD"). */
const LOCK_SPACE = 0x4c44;

export const BUSY_MESSAGE =
  'This dictionary is being imported, replaced or deleted by another request. Try again when it has finished.';

/** Held while one request writes a dictionary's entries: the connection its writes go through. */
export interface DictionaryClaim {
  readonly db: EntityManager;
  release(): Promise<void>;
}

/**
 * One writer per dictionary at a time (docs/dictionaries.md, "Two imports at once"). In this process a
 * set of ids; with PostgreSQL, where several instances may serve one database (docs/scaling.md), also a
 * session advisory lock on the connection the import writes through: the database drops it when that
 * connection or its process dies, so a crash never leaves a dictionary claimed. SQLite serves one process
 * per STORAGE_DIR (the instance lock), so the set is the whole answer there.
 */
@Injectable()
export class DictionaryClaims {
  private readonly held = new Set<number>();

  constructor(private readonly db: DataSource) {}

  private get postgres(): boolean {
    return this.db.options.type === 'postgres';
  }

  /** Claims dictionary `id`, or answers null when another writer holds it. */
  async tryClaim(id: number): Promise<DictionaryClaim | null> {
    if (this.held.has(id)) return null;
    this.held.add(id);
    if (!this.postgres) return { db: this.db.manager, release: () => this.forget(id) };
    const runner = this.db.createQueryRunner();
    try {
      const [row] = await sql<Array<{ locked: boolean }>>(
        runner.manager,
        `SELECT pg_try_advisory_lock(?, ?) AS locked`,
        [LOCK_SPACE, id],
      );
      if (row?.locked) return this.claimOn(runner, id);
    } catch (error) {
      this.held.delete(id);
      await runner.release();
      throw error;
    }
    this.held.delete(id);
    await runner.release();
    return null;
  }

  /** As tryClaim, with a 409 when another writer holds the dictionary. */
  async claim(id: number): Promise<DictionaryClaim> {
    const claim = await this.tryClaim(id);
    if (!claim) throw new ConflictException(BUSY_MESSAGE);
    return claim;
  }

  /**
   * Creates a dictionaries row (hidden: generation 0) already claimed. With PostgreSQL the row and the
   * lock are one transaction, so no other instance's sweep (dictionary-sweep.ts) ever sees the row
   * unclaimed and takes it for a crashed import's.
   */
  async create(
    insert: (db: EntityManager) => Promise<number>,
  ): Promise<{ id: number; claim: DictionaryClaim }> {
    if (!this.postgres) {
      const id = await insert(this.db.manager);
      this.held.add(id);
      return { id, claim: { db: this.db.manager, release: () => this.forget(id) } };
    }
    const runner = this.db.createQueryRunner();
    try {
      await runner.startTransaction();
      const id = await insert(runner.manager);
      await sql(runner.manager, `SELECT pg_advisory_lock(?, ?)`, [LOCK_SPACE, id]);
      await runner.commitTransaction();
      this.held.add(id);
      return { id, claim: this.claimOn(runner, id) };
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      await runner.release();
      throw error;
    }
  }

  /** Ends this process's claim (SQLite's whole claim). */
  private forget(id: number): Promise<void> {
    this.held.delete(id);
    return Promise.resolve();
  }

  private claimOn(runner: QueryRunner, id: number): DictionaryClaim {
    return {
      db: runner.manager,
      release: async () => {
        this.held.delete(id);
        try {
          await sql(runner.manager, `SELECT pg_advisory_unlock(?, ?)`, [LOCK_SPACE, id]);
          await runner.release();
        } catch (error) {
          // A connection that may still hold the lock must not go back to the pool: pg closes it.
          const pg = runner as QueryRunner & { releasePostgresConnection(err: unknown): Promise<void> };
          await pg.releasePostgresConnection(error);
        }
      },
    };
  }
}
