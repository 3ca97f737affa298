import type { Page } from '@playwright/test';
import type { QueuedAction as SiteAction } from '../../site/lib/offline/queue';

/**
 * The device's queue of actions waiting to be sent (site/lib/offline/store.ts: the `queue` store of the
 * `lingonovel-offline` IndexedDB database; site/lib/offline/queue.ts), as a journey looks at it: what the
 * learner did has reached the device once it is there, and only then may the page be left safely.
 */
export type QueuedAction = Omit<SiteAction, 'body'> & { body: Record<string, unknown> };

/**
 * Adds `seed` to the queue store and reads it all, in one transaction; null while the page has not made the
 * database yet (opening it here must not create it: the site's own upgrade would then never run).
 */
function onQueue<T>(page: Page, mode: IDBTransactionMode, seed: QueuedAction[] = []): Promise<T[] | null> {
  return page.evaluate(
    ([mode, seed]) =>
      new Promise<T[] | null>((resolve, reject) => {
        const open = indexedDB.open('lingonovel-offline');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('queue')) {
            db.close();
            return resolve(null);
          }
          const transaction = db.transaction('queue', mode);
          const store = transaction.objectStore('queue');
          for (const action of seed) store.add(action);
          const all = store.getAll();
          transaction.oncomplete = () => {
            db.close();
            resolve(all.result as T[]);
          };
          transaction.onabort = () => {
            db.close();
            reject(transaction.error ?? new Error('aborted'));
          };
        };
      }),
    [mode, seed] as const,
  );
}

/** What waits in the device's queue, in order (empty while there is no queue yet). */
export async function queuedActions(page: Page): Promise<QueuedAction[]> {
  return (await onQueue<QueuedAction>(page, 'readonly')) ?? [];
}

/** Adds actions to the device's queue as if queued earlier; false while the page has not made it yet. */
export async function seedQueue(page: Page, actions: QueuedAction[]): Promise<boolean> {
  return (await onQueue<QueuedAction>(page, 'readwrite', actions)) !== null;
}
