import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CatalogueEvents } from './catalogue-events';

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;

/**
 * The life of an in-memory index of the catalogue that lets a request skip a query (the media gate's,
 * content/access/media-index.ts; the page cache's translation languages, translation-index.ts). A subclass says
 * what it reads and answers; this class decides when it reads and whether it may answer at all.
 *
 * It reads at boot and on every catalogue change, here or on another instance (catalogue-broadcast.ts).
 * It fails closed: until a read has worked, and from a failed read until one works again, `current` is
 * false and the subclass answers "cannot tell", since a change it missed may have changed anything. A
 * failed read is logged and retried with a growing delay (1 s, doubling to a minute), however long it
 * takes; a database that fails at boot does not stop the boot. Reads are numbered as they start
 * (`begin`), since with a connection pool they may end in any order: which result wins is the subclass's
 * rule, as it depends on what a read covers.
 */
export abstract class RefreshingIndex implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(this.constructor.name);
  /** Whether the index can tell: a read has worked and none that counts has failed since. */
  protected current = false;
  private started = 0;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  /** `unsure` completes the failure's log line: what the index cannot read, and what follows from that. */
  protected constructor(
    events: CatalogueEvents,
    private readonly unsure: string,
  ) {
    events.subscribe((bookCodes) => this.follow(bookCodes));
  }

  /**
   * Reads again (`bookCodes`: the books a change names, none when it may be any) and rejects when the read
   * fails, after calling `failed`.
   */
  abstract refresh(bookCodes?: string[]): Promise<void>;

  onApplicationBootstrap(): Promise<void> {
    return this.follow();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
  }

  /** Refreshes, and on failure logs and keeps retrying on its own: never throws (a catalogue listener). */
  async follow(bookCodes: string[] = []): Promise<void> {
    await this.refresh(bookCodes).catch(() => undefined);
  }

  /** The number of a read that starts now: a later read has a greater one. */
  protected begin(): number {
    return ++this.started;
  }

  /** A read that counts has worked: the index can tell again, and stops retrying. */
  protected worked(): void {
    this.current = true;
    this.retryMs = FIRST_RETRY_MS;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  /** A read that counts has failed: the index cannot tell until a retry works. */
  protected failed(error: unknown): void {
    this.current = false;
    if (this.stopped) return;
    this.logger.error(`Could not read ${this.unsure}: ${String(error)}`);
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.follow();
    }, this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}
