import { DictionaryFileError } from './types';

/** The columns' widths (server/platform/migrations/1764403200000-Dictionaries.ts). */
export const MAX_HEADWORD = 200;
export const MAX_POS = 40;
export const MAX_NAME = 200;
export const MAX_LICENCE = 1000;

/** Counts a pass's entries against the limit, and those it leaves out on purpose. */
export class EntryCount {
  entries = 0;
  skipped = 0;

  constructor(
    private readonly file: string,
    private readonly limit: number,
  ) {}

  /** One more entry; refused past the limit, naming where in the file it was. */
  add(where: string): void {
    if (++this.entries > this.limit)
      throw new DictionaryFileError(
        this.file,
        where,
        `holds more than ${this.limit} entries, the most a dictionary may have.`,
      );
  }
}
