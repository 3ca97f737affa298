import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';
import { DictionaryFileError } from '../dictionaries/formats/types';

/** One line of a file, decoded, without its line break; `number` counts from 1. */
export interface Line {
  text: string;
  number: number;
}

const NEWLINE = 0x0a;

/** A decoder for a Hunspell `SET` name or a WHATWG label ("ISO8859-1", "microsoft-cp1251"), or null. */
export function decoderFor(encoding: string): TextDecoder | null {
  const name = encoding.trim().toLowerCase();
  const label = name
    .replace(/^iso8859-?(\d+)$/, 'iso-8859-$1')
    .replace(/^(?:microsoft-)?cp(125\d)$/, 'windows-$1');
  try {
    return new TextDecoder(label, { fatal: true });
  } catch {
    return null;
  }
}

/**
 * The lines of a file, streamed: split on the newline byte (every encoding Hunspell and our lists use
 * keeps ASCII's), then each line decoded on its own, so that a byte the encoding refuses names its line.
 * A trailing "\r" and a leading byte order mark are dropped.
 */
export async function* readLines(path: string, file: string, decoder: TextDecoder): AsyncGenerator<Line> {
  let number = 0;
  let rest: Buffer = Buffer.alloc(0);
  const decode = (bytes: Buffer): Line => {
    number += 1;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new DictionaryFileError(file, `line ${number}`, `is not valid ${decoder.encoding} text`);
    }
    if (number === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { text: text.endsWith('\r') ? text.slice(0, -1) : text, number };
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    let buffer = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE, start); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      yield decode(buffer.subarray(start, end));
      start = end + 1;
    }
    buffer = buffer.subarray(start);
    rest = Buffer.from(buffer);
  }
  if (rest.length) yield decode(rest);
}
