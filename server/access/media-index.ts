import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import { clipsByAccess } from '../catalogue/free-chapters';
import { MediaTrash } from '../media/media-trash';

/** `free`: served to anyone; `locked`: only with a live signature; `unknown`: the index cannot tell. */
export type ClipVerdict = 'free' | 'locked' | 'unknown';

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;

/**
 * What the /media gate knows without a query: every clip of the catalogue, free or locked (the catalogue's
 * rule, catalogue/free-chapters.ts), and the files let go of by a delete or a replace (kept an hour in the
 * trash for backups, media/media-trash.ts, but never served again), so that serving a file costs a set
 * lookup. Refreshed at boot and on every catalogue change, here or on another instance
 * (catalogue-broadcast.ts); admin services await the change before answering, so a new clip is classified,
 * and a deleted file withdrawn, before the admin is answered.
 *
 * It fails closed: until the first refresh has worked, and from a failed refresh until one works again,
 * every clip is `unknown` (the gate then asks for a signature), since a change it missed may have locked
 * any of them. A failed refresh is logged and retried with a growing delay, however long it takes. While
 * a refresh is in flight the previous answer stands: it was right before the change that started it.
 */
@Injectable()
export class MediaIndex implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MediaIndex.name);
  private free = new Set<string>();
  private locked = new Set<string>();
  private withdrawn = new Set<string>();
  private current = false;
  private started = 0;
  private finished = 0;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly db: DataSource,
    private readonly trash: MediaTrash,
    events: CatalogueEvents,
  ) {
    events.subscribe(() => this.follow());
  }

  /** A database that fails now does not stop the boot: clips ask for signatures until a retry works. */
  onApplicationBootstrap(): Promise<void> {
    return this.follow();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
  }

  clip(path: string): ClipVerdict {
    if (!this.current) return 'unknown';
    if (this.free.has(path)) return 'free';
    return this.locked.has(path) ? 'locked' : 'unknown';
  }

  /**
   * Whether a file was let go of (its book, chapter or phrase deleted, or the file replaced): a 404, signed
   * or not. After a failed refresh this is the last list read, the best there is: a clip needs a signature
   * then anyway, and covers and samples are public whatever happens.
   */
  isWithdrawn(path: string): boolean {
    return this.withdrawn.has(path);
  }

  /** Whether anyone may fetch this clip without a signature right now: what an unsigned URL needs. */
  isKnownFree(path: string): boolean {
    return this.clip(path) === 'free';
  }

  /** Refreshes, and on failure logs and keeps retrying on its own: never throws (a catalogue listener). */
  async follow(): Promise<void> {
    await this.refresh().catch(() => undefined);
  }

  /** Reads the clips and the trash again; rejects when the read fails (after marking every clip unknown). */
  async refresh(): Promise<void> {
    // With a connection pool two refreshes can finish out of order: the later one started decides.
    const run = ++this.started;
    try {
      const { free, locked } = await clipsByAccess(this.db);
      const withdrawn = await this.trash.withdrawn();
      if (run < this.finished) return;
      this.finished = run;
      this.free = new Set(free);
      this.locked = new Set(locked);
      this.withdrawn = new Set(withdrawn);
      this.current = true;
      this.retryMs = FIRST_RETRY_MS;
      if (this.retry) clearTimeout(this.retry);
      this.retry = null;
    } catch (error) {
      if (run >= this.finished) {
        this.finished = run;
        this.current = false;
        this.scheduleRetry(error);
      }
      throw error;
    }
  }

  private scheduleRetry(error: unknown): void {
    if (this.stopped) return;
    this.logger.error(
      `Could not read which clips are free; every clip needs a signed link until a retry works: ${String(error)}`,
    );
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.follow();
    }, this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}
