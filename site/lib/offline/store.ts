/**
 * What the device keeps for offline use besides the bytes (which live in Cache Storage, see names.ts):
 * one IndexedDB database, read by the pages and by the service worker alike (site/sw/sw.ts), since a
 * worker cannot read localStorage. Three stores:
 * - `state`: who is signed in on this browser (`member`, written by every page at every load) and when
 *   the queue last emptied (`synced`);
 * - `downloads`: one record per downloaded chapter (downloads.ts);
 * - `queue`: actions made offline, in order, waiting to be sent (queue.ts).
 */
const DB_NAME = 'lingonovel-offline';

/**
 * Whether this browser keeps anything for offline use: a secure context (HTTPS or localhost) with a
 * service worker, Cache Storage and IndexedDB. Without one (a plain-HTTP installation) nothing is kept or
 * queued, and the site works as it did before (docs/offline.md).
 */
export function offlineSupported(): boolean {
  return (
    globalThis.isSecureContext &&
    'serviceWorker' in navigator &&
    'caches' in globalThis &&
    'indexedDB' in globalThis
  );
}
const DB_VERSION = 1;

export type StoreName = 'state' | 'downloads' | 'queue';

let opening: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains('state')) db.createObjectStore('state');
      if (!db.objectStoreNames.contains('downloads')) db.createObjectStore('downloads');
      if (!db.objectStoreNames.contains('queue')) db.createObjectStore('queue', { autoIncrement: true });
    };
    request.onsuccess = () => {
      const db = request.result;
      // Another tab (or the worker) upgrading later must not be blocked by this connection.
      db.onversionchange = () => {
        db.close();
        opening = undefined;
      };
      resolve(db);
    };
    request.onerror = () => {
      opening = undefined;
      reject(request.error ?? new Error('IndexedDB is not available'));
    };
  });
  return opening;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

async function store(name: StoreName, mode: IDBTransactionMode): Promise<IDBObjectStore> {
  return (await open()).transaction(name, mode).objectStore(name);
}

export async function get<T>(name: StoreName, key: IDBValidKey): Promise<T | undefined> {
  return done((await store(name, 'readonly')).get(key)) as Promise<T | undefined>;
}

export async function put(name: StoreName, value: unknown, key?: IDBValidKey): Promise<IDBValidKey> {
  return done((await store(name, 'readwrite')).put(value, key));
}

export async function remove(name: StoreName, key: IDBValidKey | IDBKeyRange): Promise<void> {
  await done((await store(name, 'readwrite')).delete(key));
}

/** Every record of a store with its key, in key order. */
export async function entries<T>(name: StoreName): Promise<Array<{ key: IDBValidKey; value: T }>> {
  const source = await store(name, 'readonly');
  const [keys, values] = await Promise.all([done(source.getAllKeys()), done(source.getAll())]);
  return keys.map((key, i) => ({ key, value: values[i] as T }));
}

/**
 * Adds `value` to a store in one transaction with the records it outdates, so two quick writes cannot
 * both stay: `compare(held)` answers 'older' for a record `value` replaces (deleted), 'newer' for one
 * that makes `value` moot (nothing is added), and undefined for any other. Resolves once the transaction
 * has committed.
 */
export async function addOver<T>(
  name: StoreName,
  value: T,
  compare: (held: T) => 'older' | 'newer' | undefined,
): Promise<void> {
  const transaction = (await open()).transaction(name, 'readwrite');
  const source = transaction.objectStore(name);
  const committed = new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
  let moot = false;
  const cursor = source.openCursor();
  cursor.onsuccess = () => {
    const at = cursor.result;
    if (!at) {
      if (!moot) source.add(value);
      return;
    }
    const verdict = compare(at.value as T);
    if (verdict === 'older') at.delete();
    moot ||= verdict === 'newer';
    at.continue();
  };
  await committed;
}
