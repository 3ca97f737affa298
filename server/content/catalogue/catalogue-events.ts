import { Injectable, Logger } from '@nestjs/common';

type Listener = (bookCodes: string[]) => Promise<void> | void;

const RETRIES = 5;
const RETRY_MS = 1000;

/**
 * Tells whoever shows the public catalogue that it changed. Admin services await it before answering,
 * so the very next public request sees the change. Listeners are this process's caches; publishers tell
 * the other instances (catalogue-broadcast.ts), whose own listeners then run through `apply`.
 */
@Injectable()
export class CatalogueEvents {
  private readonly logger = new Logger(CatalogueEvents.name);
  private readonly listeners: Listener[] = [];
  private readonly publishers: Listener[] = [];

  subscribe(listener: Listener): void {
    this.listeners.push(listener);
  }

  publishTo(publisher: Listener): void {
    this.publishers.push(publisher);
  }

  /**
   * A change made here: this process's caches, then the other instances. The change is saved already, so
   * nothing here fails the request: every listener and publisher runs whatever another one did.
   */
  async changed(...bookCodes: string[]): Promise<void> {
    await this.apply(bookCodes);
    for (const publish of this.publishers) {
      // The edit is saved whatever happens here; a lost notice only delays other instances (see the
      // broadcast's reconnect, which clears everything).
      await Promise.resolve(publish(bookCodes)).catch((error: unknown) =>
        this.logger.warn(`Could not tell the other instances of a catalogue change: ${String(error)}`),
      );
    }
  }

  /**
   * A change made elsewhere (or possibly missed): this process's caches only. Each listener runs even if
   * another failed; a failed one (the locked-clip list's query, say) is tried again a second later, so a
   * brief database error never leaves a cache stale until the next edit.
   */
  async apply(bookCodes: string[]): Promise<void> {
    await this.run(this.listeners, bookCodes, 1);
  }

  private async run(listeners: Listener[], bookCodes: string[], attempt: number): Promise<void> {
    const failed: Listener[] = [];
    for (const listener of listeners) {
      try {
        await listener(bookCodes);
      } catch (error) {
        this.logger.error(
          `A cache could not follow a catalogue change (attempt ${attempt}): ${String(error)}`,
        );
        failed.push(listener);
      }
    }
    if (failed.length && attempt < RETRIES)
      setTimeout(() => void this.run(failed, bookCodes, attempt + 1), RETRY_MS).unref();
  }
}
