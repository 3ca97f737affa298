import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CatalogueEvents } from '../catalogue/catalogue-events';

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
    const rows: Array<{ path: string }> = await this.db.query(
      `SELECT p.audio_path AS path FROM phrases p JOIN chapters c ON c.id = p.chapter_id
       WHERE c.chapter_no > (SELECT MIN(c1.chapter_no) FROM chapters c1 WHERE c1.book_id = c.book_id)`,
    );
    // The newer of two results wins, whichever finishes first; each caller waits for its own to apply.
    if (run > this.applied) {
      this.applied = run;
      this.paths = new Set(rows.map((row) => row.path));
    }
  }
}
