import { Injectable, Logger } from '@nestjs/common';

type Listener = (bookCodes: string[]) => Promise<void> | void;

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

  /** A change made here: this process's caches, then the other instances. */
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

  /** A change made elsewhere (or possibly missed): this process's caches only. */
  async apply(bookCodes: string[]): Promise<void> {
    for (const listener of this.listeners) await listener(bookCodes);
  }
}
