import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { decompressedLimit, gunzipBeside, isGzip } from './gzip-file';
import { DictionaryFileError, type DictionaryFile, type DictionaryLimits } from './types';

/**
 * A `.dict` read by position, as its index points (dictd and StarDict alike). A `.dict.dz` is first
 * decompressed beside the upload, so memory never holds more than one definition.
 *
 * Reads are synchronous on purpose: each is one small `pread` from the page cache (a few microseconds),
 * and an index of 500,000 entries through the promise API spends seconds on its bookkeeping alone.
 */
export class DictData {
  private constructor(
    readonly file: DictionaryFile,
    private readonly fd: number,
    readonly size: number,
    private readonly temporary: string | null,
  ) {}

  /** Opens the file, decompressing it when it is gzip whatever its name; a `.dz` that is not gzip is refused. */
  static async open(file: DictionaryFile, limits: DictionaryLimits): Promise<DictData> {
    const gzip = await isGzip(file);
    if (!gzip && /\.dz$/i.test(file.name))
      throw new DictionaryFileError(file.name, 'offset 0', 'is not gzip (dictzip) data.');
    const temporary = gzip ? await gunzipBeside(file, decompressedLimit(file, limits)) : null;
    const fd = openSync(temporary ?? file.path, 'r');
    return new DictData(file, fd, fstatSync(fd).size, temporary);
  }

  private scratch = Buffer.alloc(0);

  /**
   * The bytes at `offset`, at most `max` of them (a longer definition is cut, and its end never read).
   * They are valid until the next read: one buffer serves them all, so half a million reads make no garbage.
   */
  read(offset: number, length: number, max: number): Buffer {
    const want = Math.min(length, max);
    if (this.scratch.length < want) this.scratch = Buffer.allocUnsafe(Math.max(want, 1 << 16));
    const buffer = this.scratch.subarray(0, want);
    let done = 0;
    while (done < buffer.length) {
      const n = readSync(this.fd, buffer, done, buffer.length - done, offset + done);
      if (n === 0) break;
      done += n;
    }
    return buffer.subarray(0, done);
  }

  private closed = false;

  /** Closes the file and removes the decompressed copy; a second call does nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    if (this.temporary) await rm(this.temporary, { force: true });
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Bytes as UTF-8, refused with the offset when they are not. `cut` says the bytes end mid-definition,
 * where a character's first bytes may stand without the rest: those are dropped, not refused.
 */
export function utf8At(file: DictionaryFile, offset: number, bytes: Buffer, cut: boolean): string {
  try {
    if (!cut) return decoder.decode(bytes);
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, { stream: true });
    return text;
  } catch {
    throw new DictionaryFileError(file.name, `offset ${offset}`, 'is not valid UTF-8.');
  }
}
