import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { MB } from '../../platform/common/body-limits';

/** What a zip may hold before it is refused as a bomb. */
export const ZIP_LIMITS = {
  entries: 2000,
  totalBytes: 500 * MB,
  /** An entry this large must not expand more than `maxRatio` times. */
  ratioFromBytes: 10 * MB,
  maxRatio: 100,
};

/** A refused archive: the message says why, and the status is 413 for a size, 422 for the rest. */
export class ZipRejected extends Error {
  constructor(
    message: string,
    readonly status: 413 | 422,
  ) {
    super(message);
  }
}

export interface ZipEntry {
  /** The entry's path in the zip, with forward slashes. */
  name: string;
  /** Where its bytes were written: a numbered file in the destination folder, never the entry's name. */
  file: string;
  size: number;
}

/** Files that macOS and Windows add to folders and archives, which nobody means to import. */
export function isJunk(name: string): boolean {
  const parts = name.split('/');
  const base = parts[parts.length - 1];
  return (
    parts.includes('__MACOSX') ||
    base.startsWith('._') ||
    ['.ds_store', 'thumbs.db', 'desktop.ini'].includes(base.toLowerCase())
  );
}

/** A path that could point outside the folder it is extracted to, or that no file system agrees on. */
function unsafe(name: string): boolean {
  return (
    name.startsWith('/') ||
    name.includes('\\') ||
    /^[a-zA-Z]:/.test(name) ||
    name.split('/').some((part) => part === '..') ||
    name.includes('\0')
  );
}

const open = (path: string) =>
  new Promise<ZipFile>((resolve, reject) =>
    yauzl.open(
      path,
      // Names are checked here, with our own messages; sizes are counted here too, from the real bytes.
      {
        lazyEntries: true,
        autoClose: true,
        decodeStrings: true,
        strictFileNames: false,
        validateEntrySizes: false,
      },
      (error, zip) =>
        error || !zip ? reject(error ?? new Error('The zip could not be opened.')) : resolve(zip),
    ),
  );

/**
 * Extracts a zip read from disk as a stream (yauzl), one entry at a time, into `dest` under numbered
 * names. Every limit is checked on the real bytes as they come, not on the sizes the archive declares:
 * more than 2,000 entries, more than 500 MB in all, an entry over 10 MB expanding beyond 100:1, an entry
 * larger than it declares, and unsafe paths are all refused, and the caller removes `dest`.
 */
export async function extractZip(path: string, dest: string, limits = ZIP_LIMITS): Promise<ZipEntry[]> {
  let zip: ZipFile;
  try {
    zip = await open(path);
  } catch {
    throw new ZipRejected('The clips file is not a zip archive that can be read.', 422);
  }
  if (zip.entryCount > limits.entries)
    throw new ZipRejected(`The zip holds ${zip.entryCount} entries; the most is ${limits.entries}.`, 413);
  const entries: ZipEntry[] = [];
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: Entry) => {
        handle(entry).then(() => zip.readEntry(), reject);
      });
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    if (error instanceof ZipRejected) throw error;
    // yauzl checks names too, before we see them.
    const message = error instanceof Error ? error.message : '';
    if (/absolute path|invalid relative path|invalid characters/.test(message))
      throw new ZipRejected(`The zip holds an unsafe path: ${message.slice(0, 200)}.`, 422);
    throw new ZipRejected('The zip archive is damaged and cannot be read.', 422);
  }
  return entries;

  async function handle(entry: Entry): Promise<void> {
    const name = entry.fileName;
    if (unsafe(name)) throw new ZipRejected(`The zip holds an unsafe path: "${name.slice(0, 200)}".`, 422);
    if (name.endsWith('/') || isJunk(name)) return;
    const declared = entry.uncompressedSize;
    const ratioRefused = (size: number) =>
      size > limits.ratioFromBytes && size > Math.max(1, entry.compressedSize) * limits.maxRatio;
    if (total + declared > limits.totalBytes) throw tooMuch();
    if (ratioRefused(declared)) throw bomb(name);
    const file = join(dest, `${entries.length + 1}.part`);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        size += chunk.length;
        total += chunk.length;
        if (size > declared)
          return next(new ZipRejected(`"${name.slice(0, 200)}" is larger than the zip declares.`, 413));
        if (total > limits.totalBytes) return next(tooMuch());
        if (ratioRefused(size)) return next(bomb(name));
        next(null, chunk);
      },
    });
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      zip.openReadStream(entry, (error, readable) =>
        error || !readable
          ? reject(error ?? new Error(`${name} could not be read from the zip.`))
          : resolve(readable),
      ),
    );
    await pipeline(stream, counter, createWriteStream(file, { mode: 0o600 }));
    entries.push({ name, file, size });
  }

  function tooMuch() {
    return new ZipRejected(`The zip expands to more than ${limits.totalBytes / MB} MB.`, 413);
  }
  function bomb(name: string) {
    return new ZipRejected(
      `"${name.slice(0, 200)}" expands more than ${limits.maxRatio} times: the zip is refused as a zip bomb.`,
      413,
    );
  }
}
