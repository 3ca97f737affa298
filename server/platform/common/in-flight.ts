/**
 * Work under way, by key: a caller asking for a key whose work is already running waits for that run
 * instead of starting the same work again (a transcode, a measurement, a conversion). A key is forgotten
 * as soon as its work settles, after a failure too: a failure is no answer to keep, and work that is done
 * has left its result where the next caller looks first (a store, a table).
 */
export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  /** `work()`'s promise, or the one a caller started for `key` and that has not settled yet. */
  run(key: string, work: () => Promise<T>): Promise<T> {
    let pending = this.running.get(key);
    if (!pending) {
      pending = work().finally(() => this.running.delete(key));
      this.running.set(key, pending);
    }
    return pending;
  }
}
