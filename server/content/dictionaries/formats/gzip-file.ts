import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { DictionaryFileError, type DictionaryFile, type DictionaryLimits } from './types';

const MiB = 1 << 20;
/** Text compresses 3 to 8 times (FreeDict's German-English: 16.7 MB to 100 MB); 20 leaves room, and stops a bomb. */
const RATIO = 20;
// A dictionary as large as any known (FreeDict German-English: 100 MB) fits five times; the disk it may take stays bounded.
const CEILING = 512 * MiB;

/** The most bytes `file` may decompress to (docs/dictionary-formats.md). */
export const decompressedLimit = (file: DictionaryFile, limits: DictionaryLimits): number =>
  Math.min(limits.decompressedBytes ?? CEILING, RATIO * file.size + MiB);

/** Whether the file starts as gzip does (dictzip is gzip with an extra field, so it does too). */
export async function isGzip(file: DictionaryFile): Promise<boolean> {
  const handle = await open(file.path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** Counts the bytes that pass, so that an error can say how far the file was read. */
class Counter extends Transform {
  bytes = 0;
  constructor(private readonly max = Infinity) {
    super();
  }
  override _transform(chunk: Buffer, _: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.max) done(new RangeError('too large'));
    else done(null, chunk);
  }
}

/**
 * Decompresses a gzip (or dictzip) file, streamed, into a new file beside it (the upload's folder), and
 * returns that file's path; the caller removes it. Refused, with nothing left behind, when it is not
 * gzip, is corrupt or truncated, or would pass `maxBytes`.
 */
export async function gunzipBeside(file: DictionaryFile, maxBytes: number): Promise<string> {
  if (!(await isGzip(file)))
    throw new DictionaryFileError(file.name, 'offset 0', 'is not gzip (dictzip) data.');
  const target = join(dirname(file.path), `${randomUUID()}.unzipped`);
  const read = new Counter();
  const written = new Counter(maxBytes);
  try {
    await pipeline(createReadStream(file.path), read, createGunzip(), written, createWriteStream(target));
    return target;
  } catch (error) {
    await rm(target, { force: true });
    if (error instanceof RangeError && written.bytes > maxBytes)
      throw new DictionaryFileError(file.name, null, `decompresses to more than ${maxBytes} bytes.`);
    const reason = (error as Error).message || 'unreadable';
    throw new DictionaryFileError(file.name, `offset ${read.bytes}`, `is not valid gzip data (${reason}).`);
  }
}
