import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DictionariesRepository } from './dictionaries.repository';
import { DictionaryClaims } from './dictionary-claims';
import { deleteOtherGenerations } from './dictionary-entries';

/**
 * At boot, removes what a crash left (docs/dictionaries.md, "Atomicity: generations"): the entries of generations
 * that are not live (an import cut short, a replaced generation not yet deleted) and the hidden rows of
 * first imports or deletions that never finished. Each dictionary is claimed first, so one that another
 * instance is importing right now is left alone (a PostgreSQL installation may run several).
 */
@Injectable()
export class DictionarySweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DictionarySweep.name);
  private running: Promise<unknown> = Promise.resolve();
  private stopping = false;

  constructor(
    private readonly rows: DictionariesRepository,
    private readonly claims: DictionaryClaims,
  ) {}

  /**
   * The rows are listed before the server takes requests, so a hidden row on the list is never one this
   * process is creating; the removal runs after, not holding up the first request.
   */
  async onApplicationBootstrap(): Promise<void> {
    const found = await this.rows.all();
    this.running = this.sweep(found).catch((error: unknown) =>
      this.logger.warn(`The dictionaries' sweep failed: ${String(error)}`),
    );
  }

  /** Resolves when the boot's sweep has ended (the tests wait for it). */
  settled(): Promise<unknown> {
    return this.running;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  /** Sweeps the dictionaries listed; answers how many entries it removed. */
  async sweep(found: Array<{ id: number }>): Promise<number> {
    let removed = 0;
    for (const { id } of found) {
      if (this.stopping) break;
      const claim = await this.claims.tryClaim(id);
      if (!claim) continue;
      try {
        // Read under the claim: an import elsewhere may have moved it on since the list was made.
        const row = await this.rows.find(id, claim.db);
        if (!row) continue;
        removed += await deleteOtherGenerations(claim.db, id, row.generation);
        if (row.generation === 0) await this.rows.remove(claim.db, id);
      } finally {
        await claim.release();
      }
    }
    if (removed > 0) this.logger.log(`Removed ${removed} dictionary entries left by an unfinished import.`);
    return removed;
  }
}
