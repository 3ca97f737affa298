import { Injectable } from '@nestjs/common';

type Listener = (bookCodes: string[]) => Promise<void> | void;

/**
 * Tells whoever shows the public catalogue that it changed. Admin services await it before answering,
 * so the very next public request sees the change.
 */
@Injectable()
export class CatalogueEvents {
  private readonly listeners: Listener[] = [];

  subscribe(listener: Listener): void {
    this.listeners.push(listener);
  }

  async changed(...bookCodes: string[]): Promise<void> {
    for (const listener of this.listeners) await listener(bookCodes);
  }
}
