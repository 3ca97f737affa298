import type { DictionaryFormat } from '../dictionary.entity';

/** An uploaded file, already streamed to disk (STORAGE_DIR/tmp), with the name the client gave it. */
export interface DictionaryFile {
  /** The client's file name, e.g. `freedict-spa-eng.index`: it tells the parts of a dictionary apart. */
  name: string;
  path: string;
  size: number;
}

/** One entry as a file gives it; the definition already reduced to plain text (no HTML). */
export interface ParsedEntry {
  headword: string;
  definition: string;
  pos: string | null;
}

/** What a file says about itself, where its format has room for it (dictd's 00-database-* entries). */
export interface DictionaryMeta {
  name?: string;
  licence?: string;
  attribution?: string;
  source?: string;
  target?: string;
}

/** The most a dictionary may hold, so that a hostile file cannot fill the database. */
export interface DictionaryLimits {
  entries: number;
  /** A longer definition is cut to this many characters, its last one an ellipsis (docs/dictionary-formats.md). */
  definitionChars: number;
  /**
   * The most bytes a compressed part (`.dict.dz`, `.idx.gz`) may decompress to; by default 20 times its
   * compressed size plus 1 MiB, and never more than 2 GiB (docs/dictionary-formats.md).
   */
  decompressedBytes?: number;
}

/** A set of files recognised as one dictionary: its metadata now, its entries streamed once. */
export interface OpenedDictionary {
  format: DictionaryFormat;
  meta: DictionaryMeta;
  /** Every entry in file order; throws DictionaryFileError at the first broken one. */
  entries(): AsyncIterable<ParsedEntry>;
  /**
   * How many entries the last pass of `entries()` left out on purpose (a dictd or StarDict headword that is
   * empty or longer than 200 characters, a definition with no text): docs/dictionary-formats.md.
   */
  readonly skipped?: number;
  /** Removes what opening made on disk (a decompressed copy), whether or not entries were read. */
  close(): Promise<void>;
}

/**
 * A file that is not what it claims, or breaks a limit: the answer names the file and where (`line 12`,
 * `offset 4096`), and the route turns it into a 422 (docs/dictionaries.md).
 */
export class DictionaryFileError extends Error {
  constructor(
    readonly file: string,
    readonly where: string | null,
    readonly problem: string,
  ) {
    super(where ? `${file}, ${where}: ${problem}` : `${file}: ${problem}`);
  }
}
