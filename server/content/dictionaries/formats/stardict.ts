import { rm, stat } from 'node:fs/promises';
import { DictData, utf8At } from './dict-data';
import { EntryCount, MAX_HEADWORD } from './entry-limits';
import { decompressedLimit, gunzipBeside, isGzip } from './gzip-file';
import { entryFields, fieldsText } from './stardict-data';
import { readIdxRecords } from './stardict-idx';
import { readIfo, type StarDictInfo } from './stardict-ifo';
import { plainText, withinLimit } from './safe-text';
import {
  DictionaryFileError,
  type DictionaryFile,
  type DictionaryLimits,
  type OpenedDictionary,
  type ParsedEntry,
} from './types';

export interface StarDictFiles {
  ifo: DictionaryFile;
  idx: DictionaryFile;
  dict: DictionaryFile;
  syn: DictionaryFile | null;
}

const wordDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A StarDict dictionary (docs/dictionary-formats.md, "StarDict"): the `.idx` read in order, each
 * definition read from the `.dict` where its record points; then each `.syn` word as an entry of its own
 * with the definition of the `.idx` word it names.
 */
export async function openStarDict(
  files: StarDictFiles,
  limits: DictionaryLimits,
): Promise<OpenedDictionary> {
  const info = await readIfo(files.ifo);
  const { ifo, idx, syn } = files;
  if (info.wordcount + info.synwordcount > limits.entries)
    throw new DictionaryFileError(
      ifo.name,
      null,
      `announces ${info.wordcount + info.synwordcount} entries; a dictionary may have ${limits.entries}.`,
    );
  if (syn && !info.synwordcount)
    throw new DictionaryFileError(ifo.name, null, `has no synwordcount, which ${syn.name} needs.`);
  // An .idx.gz is read from a decompressed copy; idxfilesize counts the decompressed bytes.
  const idxPath = (await isGzip(idx)) ? await gunzipBeside(idx, decompressedLimit(idx, limits)) : null;
  const cleanUp = () => (idxPath ? rm(idxPath, { force: true }) : Promise.resolve());
  let dict: DictData;
  try {
    const { size } = await stat(idxPath ?? idx.path);
    if (size !== info.idxfilesize)
      throw new DictionaryFileError(
        ifo.name,
        null,
        `says idxfilesize=${info.idxfilesize}, but ${idx.name} holds ${size} bytes.`,
      );
    dict = await DictData.open(files.dict, limits);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const reader = new EntryReader(files, info, dict, limits);
  return {
    format: 'stardict',
    meta: info.meta,
    entries: () => reader.entries(idxPath ?? idx.path),
    get skipped() {
      return reader.skipped;
    },
    close: async () => {
      await dict.close();
      await cleanUp();
    },
  };
}

/** One pass over the entries; keeps each word's offset and size (12 bytes a word) when a `.syn` needs them. */
class EntryReader {
  skipped = 0;
  private readonly maxBytes: number;

  constructor(
    private readonly files: StarDictFiles,
    private readonly info: StarDictInfo,
    private readonly dict: DictData,
    private readonly limits: DictionaryLimits,
  ) {
    this.maxBytes = limits.definitionChars * 4 + (1 << 16);
  }

  async *entries(idxPath: string): AsyncGenerator<ParsedEntry> {
    const { idx, ifo, syn } = this.files;
    const { wordcount, offsetBits } = this.info;
    const offsets = syn ? new Float64Array(wordcount) : null;
    const sizes = syn ? new Uint32Array(wordcount) : null;
    const count = new EntryCount(idx.name, this.limits.entries);
    this.skipped = 0;
    let n = 0;
    for await (const records of readIdxRecords(idx, idxPath, offsetBits === 64 ? 12 : 8))
      for (const record of records) {
        if (n >= wordcount)
          throw new DictionaryFileError(
            idx.name,
            `offset ${record.at}`,
            `holds more words than ${ifo.name}'s wordcount (${wordcount}).`,
          );
        if (record.value + record.size > this.dict.size)
          throw new DictionaryFileError(
            idx.name,
            `offset ${record.at}`,
            `points past the end of ${this.dict.file.name} (offset ${record.value} and size ${record.size}, but it holds ${this.dict.size} bytes).`,
          );
        if (offsets && sizes) [offsets[n], sizes[n]] = [record.value, record.size];
        n++;
        const entry = this.entry(idx, record.word, record.at, record.value, record.size);
        if (!entry) continue;
        count.add(`offset ${record.at}`);
        yield entry;
      }
    if (n !== wordcount)
      throw new DictionaryFileError(
        ifo.name,
        null,
        `says wordcount=${wordcount}, but ${idx.name} holds ${n} words.`,
      );
    if (!syn || !offsets || !sizes) return;
    let synonyms = 0;
    for await (const records of readIdxRecords(syn, syn.path, 4))
      for (const record of records) {
        synonyms++;
        if (record.value >= wordcount)
          throw new DictionaryFileError(
            syn.name,
            `offset ${record.at}`,
            `names word ${record.value} of ${idx.name}, which holds ${wordcount}.`,
          );
        const entry = this.entry(syn, record.word, record.at, offsets[record.value], sizes[record.value]);
        if (!entry) continue;
        count.add(`offset ${record.at}`);
        yield entry;
      }
    if (synonyms !== this.info.synwordcount)
      throw new DictionaryFileError(
        ifo.name,
        null,
        `says synwordcount=${this.info.synwordcount}, but ${syn.name} holds ${synonyms} words.`,
      );
  }

  /** The entry a record names, or null (counted as skipped) when its headword or its text is empty or too long. */
  private entry(
    from: DictionaryFile,
    wordBytes: Buffer,
    at: number,
    offset: number,
    size: number,
  ): ParsedEntry | null {
    let word: string;
    try {
      word = wordDecoder.decode(wordBytes);
    } catch {
      throw new DictionaryFileError(from.name, `offset ${at}`, 'has a word that is not valid UTF-8.');
    }
    const headword = plainText(word);
    const data = this.dict.read(offset, size, this.maxBytes);
    const fields = entryFields(data, this.info.sametypesequence);
    if (!fields)
      throw new DictionaryFileError(
        this.dict.file.name,
        `offset ${offset}`,
        'holds an entry whose fields do not fit its size.',
      );
    const cut = data.length < size;
    const decode = (bytes: Buffer) => {
      const start = bytes.byteOffset - data.byteOffset;
      // Only the field the cut went through may end mid-character.
      return utf8At(this.dict.file, offset + start, bytes, cut && start + bytes.length === data.length);
    };
    const definition = fieldsText(fields, decode);
    if (!headword || headword.length > MAX_HEADWORD || !definition) {
      this.skipped++;
      return null;
    }
    return { headword, definition: withinLimit(definition, this.limits.definitionChars), pos: null };
  }
}
