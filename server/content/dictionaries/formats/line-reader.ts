import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';
import { DictionaryFileError, type DictionaryFile } from './types';

/** One line of a text file: its bytes without the line break (LF or CRLF), and its 1-based number. */
export interface RawLine {
  bytes: Buffer;
  number: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * The file's lines, a 64 KiB chunk's worth at a time (one await per chunk, not per line: an index has
 * half a million lines). Memory holds one chunk and one line, never the file; a line longer than
 * `maxLineBytes` is refused, as a file with no line breaks would otherwise be read whole.
 */
export async function* readLineBatches(
  file: DictionaryFile,
  maxLineBytes: number,
): AsyncGenerator<RawLine[]> {
  let carry: Buffer[] = [];
  let carried = 0;
  let number = 1;
  const line = (bytes: Buffer): RawLine => {
    if (bytes.length > maxLineBytes) throw tooLong(file, number, maxLineBytes);
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    return { bytes: bytes.subarray(0, end), number: number++ };
  };
  for await (const chunk of createReadStream(file.path, {
    highWaterMark: 1 << 16,
  }) as AsyncIterable<Buffer>) {
    const batch: RawLine[] = [];
    let start = 0;
    for (let at = chunk.indexOf(LF); at >= 0; at = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, at);
      batch.push(line(carried ? Buffer.concat([...carry, piece]) : piece));
      carry = [];
      carried = 0;
      start = at + 1;
    }
    if (start < chunk.length) {
      carried += chunk.length - start;
      if (carried > maxLineBytes) throw tooLong(file, number, maxLineBytes);
      carry.push(chunk.subarray(start));
    }
    if (batch.length) yield batch;
  }
  if (carried) yield [line(Buffer.concat(carry))];
}

const tooLong = (file: DictionaryFile, line: number, max: number) =>
  new DictionaryFileError(file.name, `line ${line}`, `is longer than ${max} bytes.`);

/** UTF-8, refusing invalid bytes; a byte order mark is kept, for lineText to drop on line 1 only. */
export const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A line's text in `decoder`'s encoding (UTF-8 unless told: Hunspell's `SET` may name another); bytes
 * the encoding refuses are refused with the line's number, never read as U+FFFD. The decoder must be
 * fatal, keep byte order marks (ignoreBOM) and use one byte for "\n", as lines are split on it.
 */
export function lineText(file: DictionaryFile, line: RawLine, decoder: TextDecoder = UTF8): string {
  let text: string;
  try {
    text = decoder.decode(line.bytes);
  } catch {
    const encoding = decoder.encoding === 'utf-8' ? 'UTF-8' : `${decoder.encoding} text`;
    throw new DictionaryFileError(file.name, `line ${line.number}`, `is not valid ${encoding}.`);
  }
  return line.number === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
