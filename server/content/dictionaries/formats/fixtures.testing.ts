import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeDictdNumber } from './dictd-base64';
import type { DictionaryFile, DictionaryLimits, OpenedDictionary, ParsedEntry } from './types';

/** Files for the parsers' specs, written into a folder of their own as uploads would be. */
export class Uploads {
  readonly dir = mkdtempSync(join(tmpdir(), 'dictionary-formats-'));

  write(name: string, content: string | Buffer): DictionaryFile {
    const path = join(this.dir, `${readdirSync(this.dir).length}-${name}`);
    writeFileSync(path, content);
    return { name, path, size: statSync(path).size };
  }

  /** A file compressed with Debian's dictzip (gzip with its chunk table). */
  dictzip(name: string, content: string | Buffer): DictionaryFile {
    const plain = join(this.dir, `dz-${readdirSync(this.dir).length}`);
    writeFileSync(plain, content);
    execFileSync('dictzip', [plain]);
    return { name, path: `${plain}.dz`, size: statSync(`${plain}.dz`).size };
  }

  /** What is left in the folder besides the uploads themselves (a decompressed copy not removed). */
  leftovers(uploads: DictionaryFile[]): string[] {
    const kept = new Set(uploads.map((file) => file.path));
    return readdirSync(this.dir)
      .map((name) => join(this.dir, name))
      .filter((path) => !kept.has(path) && !path.startsWith(join(this.dir, 'dz-')));
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A dictd `.index` and `.dict` text from [headword, definition] pairs, as dictfmt lays them out. */
export function dictd(entries: [string, string][]): { index: string; dict: string } {
  let dict = '';
  const lines: string[] = [];
  for (const [word, text] of entries) {
    const offset = Buffer.byteLength(dict);
    dict += text;
    lines.push(`${word}\t${encodeDictdNumber(offset)}\t${encodeDictdNumber(Buffer.byteLength(text))}`);
  }
  return { index: `${lines.join('\n')}\n`, dict };
}

export const LIMITS: DictionaryLimits = { entries: 1000, definitionChars: 2000 };

/** Every entry, and closes the dictionary whatever happens. */
export async function readAll(opened: OpenedDictionary): Promise<ParsedEntry[]> {
  try {
    const entries: ParsedEntry[] = [];
    for await (const entry of opened.entries()) entries.push(entry);
    return entries;
  } finally {
    await opened.close();
  }
}

/** The error reading the entries throws (its message names the file and the place). */
export async function readError(opened: OpenedDictionary): Promise<Error> {
  try {
    await readAll(opened);
  } catch (error) {
    return error as Error;
  }
  throw new Error('the entries were read without an error');
}
