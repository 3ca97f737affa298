import { createReadStream } from 'node:fs';
import { DictionaryFileError, type DictionaryFile } from './types';

/** A record of an `.idx` (word, offset, size) or a `.syn` (word, index into the `.idx`), and where it starts. */
export interface IdxRecord {
  word: Buffer;
  /** `.idx`: the definition's offset in the `.dict`; `.syn`: the word's number in the `.idx`. */
  value: number;
  /** `.idx` only: the definition's size. */
  size: number;
  at: number;
}

/** StarDict's words are under 256 bytes; a NUL this far away means the file is not one. */
const MAX_WORD_BYTES = 1024;

/**
 * The records of an `.idx` (`tail` 8 or 12 bytes: a 32- or 64-bit offset and a 32-bit size) or a `.syn`
 * (`tail` 4: a 32-bit index), each a NUL-ended UTF-8 word then numbers in big endian. Read in 64 KiB
 * chunks and given a chunk's worth at a time; a record cut short by the file's end is refused.
 */
export async function* readIdxRecords(
  file: DictionaryFile,
  path: string,
  tail: 4 | 8 | 12,
): AsyncGenerator<IdxRecord[]> {
  let rest: Buffer = Buffer.alloc(0);
  let base = 0; // the file offset of rest[0]
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) {
    const data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    const records: IdxRecord[] = [];
    let at = 0;
    for (;;) {
      const nul = data.indexOf(0, at);
      if (nul < 0 || nul + 1 + tail > data.length) {
        if ((nul < 0 ? data.length : nul) - at > MAX_WORD_BYTES) throw longWord(file, base + at);
        break;
      }
      if (nul - at > MAX_WORD_BYTES) throw longWord(file, base + at);
      const value = tail === 12 ? Number(data.readBigUInt64BE(nul + 1)) : data.readUInt32BE(nul + 1);
      const size = tail === 4 ? 0 : data.readUInt32BE(nul + tail - 3);
      records.push({ word: data.subarray(at, nul), value, size, at: base + at });
      at = nul + 1 + tail;
    }
    rest = data.subarray(at);
    base += at;
    if (records.length) yield records;
  }
  if (rest.length)
    throw new DictionaryFileError(
      file.name,
      `offset ${base}`,
      'ends in the middle of a record (the file is truncated).',
    );
}

const longWord = (file: DictionaryFile, at: number) =>
  new DictionaryFileError(
    file.name,
    `offset ${at}`,
    `has a word longer than ${MAX_WORD_BYTES} bytes, or no NUL after it.`,
  );
