import { randomBytes } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { access, copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertKey,
  assertPrefix,
  contentTypeOf,
  ObjectNotFoundError,
  StoreUnavailableError,
  type ByteRange,
  type ListedObject,
  type LocalCopy,
  type MediaStore,
  type ObjectInfo,
} from './media-store';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

/**
 * A folder on this machine: today's STORAGE_DIR/media (and STORAGE_DIR/imports for staged imports), the
 * default, with nothing to configure. A file comes in by a rename, atomic on one file system, so a crash
 * never leaves a half-written file under a key in use.
 */
export class LocalMediaStore implements MediaStore {
  readonly kind = 'local';

  constructor(readonly root: string) {}

  private resolve(key: string): string {
    const full = join(this.root, assertKey(key));
    if (!full.startsWith(this.root + sep)) throw new Error(`Key escapes the store: ${key}`);
    return full;
  }

  localPath(key: string): string {
    return this.resolve(key);
  }

  async put(key: string, file: string): Promise<void> {
    const target = this.resolve(key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(file, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // Another file system (a mounted media folder): copy beside the target, then rename, still atomic.
      const partial = `${target}.${randomBytes(6).toString('hex')}.part`;
      try {
        await copyFile(file, partial);
        await rename(partial, target);
      } finally {
        await rm(partial, { force: true });
      }
      await rm(file, { force: true });
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.resolve(key), { force: true })));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertPrefix(prefix);
    if (prefix === '') throw new Error('Refusing to delete a whole store');
    await rm(join(this.root, prefix), { recursive: true, force: true });
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const info = await stat(this.resolve(key)).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!info?.isFile()) return null;
    return {
      size: info.size,
      // The shape express.static gives the same file (a weak tag of size and time).
      etag: `W/"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"`,
      lastModified: info.mtime,
      contentType: contentTypeOf(key),
    };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const handle = await open(this.resolve(key), 'r').catch((error: unknown) => {
      throw isMissing(error) ? new ObjectNotFoundError(key) : error;
    });
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async download(key: string, dest: string): Promise<void> {
    await pipeline(await this.read(key), createWriteStream(dest, { mode: 0o600 }));
  }

  async localCopy(key: string): Promise<LocalCopy> {
    const path = this.resolve(key);
    if (!(await this.head(key))) throw new ObjectNotFoundError(key);
    return { path, release: () => Promise.resolve() };
  }

  async list(prefix: string): Promise<ListedObject[]> {
    assertPrefix(prefix);
    const found: ListedObject[] = [];
    const walk = async (dir: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
        if (isMissing(error)) return [];
        throw error;
      });
      for (const entry of entries) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) {
          const info = await stat(full).catch(() => null);
          if (info)
            found.push({ key: relative(this.root, full).split(sep).join('/'), lastModified: info.mtime });
        }
      }
    };
    await walk(join(this.root, prefix));
    return found;
  }

  async check(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true });
      await access(this.root, constants.W_OK);
    } catch (error) {
      throw new StoreUnavailableError(`The media folder ${this.root} is not writable`, { cause: error });
    }
  }
}
