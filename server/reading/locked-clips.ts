import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import { clipsByAccess } from '../catalogue/free-chapters';

/**
 * The clips of locked chapters (every chapter but each book's first), kept in memory so that serving a
 * clip costs a set lookup, not a query. Refreshed at boot and on every catalogue change; admin services
 * await the change before answering, so a new clip is locked before anyone is told its URL.
 */
@Injectable()
export class LockedClips implements OnApplicationBootstrap {
  private paths = new Set<string>();
  private started = 0;
  private applied = 0;

  constructor(
    private readonly db: DataSource,
    events: CatalogueEvents,
  ) {
    events.subscribe(() => this.refresh());
  }

  onApplicationBootstrap(): Promise<void> {
    return this.refresh();
  }

  has(path: string): boolean {
    return this.paths.has(path);
  }

  async refresh(): Promise<void> {
    // With a connection pool two refreshes can finish out of order.
    const run = ++this.started;
    const { locked } = await clipsByAccess(this.db);
    // The newer of two results wins, whichever finishes first; each caller waits for its own to apply.
    if (run > this.applied) {
      this.applied = run;
      this.paths = new Set(locked);
    }
  }
}
