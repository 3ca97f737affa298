import type { Readable } from 'node:stream';

/** What a store knows about one object. */
export interface ObjectInfo {
  size: number;
  /** A quoted entity tag, as HTTP sends it. */
  etag: string;
  lastModified: Date;
  contentType: string | null;
}

export interface ListedObject {
  key: string;
  lastModified: Date;
}

/** Inclusive byte positions, as in HTTP's `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A real file holding an object's bytes, for tools that need one (zip reading, ffmpeg); release it after. */
export interface LocalCopy {
  path: string;
  release(): Promise<void>;
}

/** The store could not be reached or failed: ours to log, a 503 for the client, never a stack trace. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** The key names no object. */
export class ObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`No stored object: ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/**
 * Where media and staged imports live: a folder (LocalMediaStore) or an S3 bucket (S3MediaStore). Keys are
 * relative, slash-separated and made by the server (`covers/<hex>-640.webp`, `<import id>/1.clip`), never
 * taken from a user; `assertKey` refuses anything else before it reaches a store.
 */
export interface MediaStore {
  readonly kind: 'local' | 's3';
  /** Takes a local file in under `key` (the file is moved or uploaded; it is gone afterwards). */
  put(key: string, file: string, contentType?: string): Promise<void>;
  /** Deletes objects; missing ones are fine. */
  delete(keys: readonly string[]): Promise<void>;
  /** Deletes every object whose key starts with `prefix` (a folder: ends with `/`). */
  deletePrefix(prefix: string): Promise<void>;
  head(key: string): Promise<ObjectInfo | null>;
  /** The object's bytes, or some of them; ObjectNotFoundError when it is missing. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Writes the object's bytes to a local file. */
  download(key: string, dest: string): Promise<void>;
  /** A local file with the object's bytes: the stored file itself for a local store, a download for S3. */
  localCopy(key: string): Promise<LocalCopy>;
  /** The real file behind a key when the store is a folder (no copy needed), else null. */
  localPath(key: string): string | null;
  list(prefix: string): Promise<ListedObject[]>;
  /** Resolves when the store can take writes (a readiness probe); throws StoreUnavailableError otherwise. */
  check(): Promise<void>;
}

/**
 * Keys are made by the server, but a request path is not: no empty, dot or dot-dot segment (dotfiles are
 * never media), no backslash or NUL, nothing absolute.
 */
export function isSafeKey(key: string): boolean {
  if (!key || key.length > 512 || key.includes('\\') || key.includes('\0')) return false;
  return key.split('/').every((part) => part !== '' && !part.startsWith('.'));
}

export function assertKey(key: string): string {
  if (!isSafeKey(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
  return key;
}

export function assertPrefix(prefix: string): string {
  if (prefix !== '' && (!prefix.endsWith('/') || !isSafeKey(prefix.slice(0, -1))))
    throw new Error(`Not a storage prefix: ${JSON.stringify(prefix)}`);
  return prefix;
}

/** Media types by extension, the ones express.static gives the same files (mime-types). */
const TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

export function contentTypeOf(key: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? '';
  return TYPES[extension] ?? 'application/octet-stream';
}
