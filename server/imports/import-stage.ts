import { Inject, Injectable } from '@nestjs/common';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { APP_CONFIG, type AppConfig } from '../config';

/** A staged import is kept this long; after it, it and its files are swept. */
export const STAGE_HOURS = 24;

const ID = /^[0-9a-f-]{36}$/;

/**
 * The folders of staged imports: STORAGE_DIR/imports/<id>/, outside the public media tree and outside
 * tmp/ (which the boot sweep empties). Only this class builds their paths, and only from an id of ours,
 * so no name from an upload ever reaches the file system.
 */
@Injectable()
export class ImportStage {
  readonly root: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.root = join(config.storageDir, 'imports');
  }

  dir(id: string): string {
    if (!ID.test(id)) throw new Error(`Not an import id: ${id}`);
    return join(this.root, id);
  }

  /** A file of the import, by the name the import gave it (a number, never an uploaded name). */
  file(id: string, name: string): string {
    const path = join(this.dir(id), name);
    if (!path.startsWith(this.dir(id) + sep)) throw new Error(`Import path escapes its folder: ${name}`);
    return path;
  }

  async create(id: string): Promise<string> {
    await mkdir(this.dir(id), { recursive: true, mode: 0o700 });
    return this.dir(id);
  }

  /** Moves an uploaded temp file into the import's folder (one file system: a rename). */
  async adopt(id: string, tempFile: string, name: string): Promise<string> {
    const target = this.file(id, name);
    await rename(tempFile, target);
    return target;
  }

  async remove(id: string): Promise<void> {
    await rm(this.dir(id), { recursive: true, force: true });
  }

  /**
   * Removes import folders last touched before `before` whose id `keep` does not hold: the files of
   * imports swept from the table, and of uploads cut short by a crash before their row was written.
   */
  async sweep(before: Date, keep: Set<string>): Promise<number> {
    await mkdir(this.root, { recursive: true });
    let removed = 0;
    for (const name of await readdir(this.root)) {
      if (keep.has(name)) continue;
      const info = await stat(join(this.root, name)).catch(() => null);
      if (!info || info.mtime >= before) continue;
      await rm(join(this.root, name), { recursive: true, force: true });
      removed++;
    }
    return removed;
  }
}
