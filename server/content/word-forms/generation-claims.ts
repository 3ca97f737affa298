import { type DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import { sql } from '../../platform/database/sql';

/**
 * The first key of the PostgreSQL advisory locks on generations being written ("WF"), apart from the
 * dictionaries' ("LD", dictionary-claims.ts): a generation number and a dictionary id may be equal.
 */
const LOCK_SPACE = 0x5746;

/** Held while an import writes a generation, or while the sweep removes one: the connection to use. */
export interface GenerationClaim {
  readonly db: EntityManager;
  release(): Promise<void>;
}

/**
 * Marks the generations of word forms that are being written or swept (docs/word-forms.md,
 * "Generations"), as DictionaryClaims marks dictionaries: in this process a set of numbers; with
 * PostgreSQL, where several instances may share the database, also a session advisory lock on the
 * connection the claim's writes go through, which the database drops when that connection or its process
 * dies, so a crash never leaves a generation claimed. SQLite serves one process per STORAGE_DIR.
 */
export class GenerationClaims {
  private readonly held = new Set<number>();

  constructor(private readonly db: DataSource) {}

  /** Claims `generation`, or answers null when an import (or a sweep) holds it. */
  async tryClaim(generation: number): Promise<GenerationClaim | null> {
    if (this.held.has(generation)) return null;
    this.held.add(generation);
    const forget = () => Promise.resolve(void this.held.delete(generation));
    if (this.db.options.type !== 'postgres') return { db: this.db.manager, release: forget };
    const runner = this.db.createQueryRunner();
    let locked = false;
    try {
      const [row] = await sql<Array<{ locked: boolean }>>(
        runner.manager,
        'SELECT pg_try_advisory_lock(?, ?) AS locked',
        [LOCK_SPACE, generation],
      );
      locked = row?.locked === true;
    } finally {
      if (!locked) {
        await forget();
        await runner.release();
      }
    }
    return locked ? this.claimOn(runner, generation, forget) : null;
  }

  private claimOn(runner: QueryRunner, generation: number, forget: () => Promise<void>): GenerationClaim {
    return {
      db: runner.manager,
      release: async () => {
        await forget();
        try {
          await sql(runner.manager, 'SELECT pg_advisory_unlock(?, ?)', [LOCK_SPACE, generation]);
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
