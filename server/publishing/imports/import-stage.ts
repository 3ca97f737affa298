import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { text } from 'node:stream/consumers';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { IMPORT_STORE } from '../../platform/media/store/create-stores';
import { ObjectNotFoundError, type LocalCopy, type MediaStore } from '../../platform/media/store/media-store';

/** A staged import is kept this long; after it, it and its files are swept. */
export const STAGE_HOURS = 24;

const ID = /^[0-9a-f-]{36}$/;

/**
 * The files of staged imports, in the import store under `<id>/` (STORAGE_DIR/imports/<id>/, or the
 * bucket's `imports/<id>/`), outside the public media and outside tmp/ (which the boot sweep empties), so
 * that an import staged on one instance can be previewed and committed on another.
 *
 * Staging works on a local folder, `workDir(id)`: zip extraction, probing and ffmpeg need real files. For a
 * folder store that is the import's own folder (nothing to copy); for a bucket it is a folder under tmp/,
 * sent to the store by `publish` before the import's row is written. Only this class builds the paths and
 * keys, and only from an id of ours and names the import gave, never an uploaded name.
 */
@Injectable()
export class ImportStage {
  private readonly tempDir: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(IMPORT_STORE) readonly store: MediaStore,
  ) {
    this.tempDir = join(config.storageDir, 'tmp');
  }

  private prefix(id: string): string {
    if (!ID.test(id)) throw new Error(`Not an import id: ${id}`);
    return `${id}/`;
  }

  /** The key of a file of the import, by the name the import gave it (a number, never an uploaded name). */
  key(id: string, name: string): string {
    return this.prefix(id) + name;
  }

  /** The local folder an import is built in while it is staged. */
  workDir(id: string): string {
    return this.store.localPath(id) ?? join(this.tempDir, `import-${this.prefix(id).slice(0, -1)}`);
  }

  /** A file of the import in its work folder, during staging. */
  file(id: string, name: string): string {
    const dir = this.workDir(id);
    const path = join(dir, name);
    if (!path.startsWith(dir + sep)) throw new Error(`Import path escapes its folder: ${name}`);
    return path;
  }

  async create(id: string): Promise<string> {
    await mkdir(this.workDir(id), { recursive: true, mode: 0o700 });
    return this.workDir(id);
  }

  /** Moves an uploaded temp file into the import's work folder (one file system: a rename). */
  async adopt(id: string, tempFile: string, name: string): Promise<string> {
    const target = this.file(id, name);
    await rename(tempFile, target);
    return target;
  }

  /** Sends the work folder to the store, when the store is not that folder already. */
  async publish(id: string): Promise<void> {
    const dir = this.workDir(id);
    if (this.store.localPath(id) === dir) return;
    const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) =>
      entry.isFile(),
    );
    for (const entry of files) {
      const full = join(entry.parentPath, entry.name);
      await this.store.put(this.key(id, relative(dir, full).split(sep).join('/')), full);
    }
    await rm(dir, { recursive: true, force: true });
  }

  /** A local file with a staged file's bytes (for ffmpeg); release it when done. */
  localCopy(id: string, name: string): Promise<LocalCopy> {
    return this.store.localCopy(this.key(id, name));
  }

  /** Copies a staged file to a local path: the stage stays whole for a retry. */
  copyTo(id: string, name: string, dest: string): Promise<void> {
    return this.store.download(this.key(id, name), dest);
  }

  /** Keeps a small JSON file beside the import's files (a recording's peaks), from any instance. */
  async writeJson(id: string, name: string, value: unknown): Promise<void> {
    await mkdir(this.tempDir, { recursive: true });
    const temp = join(this.tempDir, `json-${randomBytes(8).toString('hex')}`);
    try {
      await writeFile(temp, JSON.stringify(value), { mode: 0o600 });
      await this.store.put(this.key(id, name), temp, 'application/json');
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** A JSON file of the import, parsed; null when there is none (or it is not JSON: it is made again). */
  async readJson(id: string, name: string): Promise<unknown> {
    let body: string;
    try {
      body = await text(await this.store.read(this.key(id, name)));
    } catch (error) {
      if (error instanceof ObjectNotFoundError) return null;
      throw error;
    }
    try {
      return JSON.parse(body) as unknown;
    } catch {
      return null;
    }
  }

  async remove(id: string): Promise<void> {
    await rm(this.workDir(id), { recursive: true, force: true });
    await this.store.deletePrefix(this.prefix(id));
  }

  /**
   * Removes the files of imports whose id `keep` does not hold and whose newest file is older than
   * `before`: the files of imports swept from the table, and of uploads cut short by a crash before their
   * row was written. Nothing younger is touched.
   */
  async sweep(before: Date, keep: Set<string>): Promise<number> {
    const newest = new Map<string, number>();
    for (const object of await this.store.list('')) {
      const id = object.key.split('/', 1)[0];
      newest.set(id, Math.max(newest.get(id) ?? 0, object.lastModified.getTime()));
    }
    let removed = 0;
    for (const [id, time] of newest) {
      if (keep.has(id) || !ID.test(id) || time >= before.getTime()) continue;
      await this.store.deletePrefix(`${id}/`);
      removed++;
    }
    return removed;
  }
}
