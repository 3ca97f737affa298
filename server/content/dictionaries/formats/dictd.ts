import { shortened } from '../../../platform/common/cut-text';
import { DictData, utf8At } from './dict-data';
import { decodeDictdNumber } from './dictd-base64';
import { dictdEntry } from './dictd-entry';
import { dictdMeta, headerKey, type DictdHeader } from './dictd-meta';
import { EntryCount, MAX_HEADWORD, MAX_POS } from './entry-limits';
import { lineText, readLineBatches, type RawLine } from './line-reader';
import { plainText, withinLimit } from './safe-text';
import {
  DictionaryFileError,
  type DictionaryFile,
  type DictionaryLimits,
  type OpenedDictionary,
  type ParsedEntry,
} from './types';

/** An index line is a headword and two short numbers; 64 KiB is far past any real one. */
const MAX_INDEX_LINE = 1 << 16;
/** A definition is read up to what its limit could need (4 bytes a character), the rest never read. */
const bytesFor = (limits: DictionaryLimits) => limits.definitionChars * 4 + (1 << 16);

interface IndexLine {
  word: string;
  offset: number;
  length: number;
}

/** One index line checked: three tab-separated fields (a fourth, dictfmt's original headword, is taken), numbers in range. */
function indexLine(index: DictionaryFile, dict: DictData, line: RawLine): IndexLine {
  const fields = lineText(index, line).split('\t');
  const where = `line ${line.number}`;
  if (fields.length < 3 || fields.length > 4)
    throw new DictionaryFileError(
      index.name,
      where,
      `has ${fields.length} tab-separated field${fields.length === 1 ? '' : 's'}; an index line has three (headword, offset, length).`,
    );
  const [offset, length] = [decodeDictdNumber(fields[1]), decodeDictdNumber(fields[2])];
  if (offset === null)
    throw new DictionaryFileError(
      index.name,
      where,
      `has an offset (“${fields[1]}”) that is not dictd base 64.`,
    );
  if (length === null)
    throw new DictionaryFileError(
      index.name,
      where,
      `has a length (“${fields[2]}”) that is not dictd base 64.`,
    );
  if (offset + length > dict.size)
    throw new DictionaryFileError(
      index.name,
      where,
      `points past the end of ${dict.file.name} (offset ${offset} and length ${length}, but it holds ${dict.size} bytes).`,
    );
  return { word: fields[3] || fields[0], offset, length };
}

/** The `00-database-*` entries' texts: the whole index is scanned, as they sort anywhere. */
async function readHeader(
  index: DictionaryFile,
  dict: DictData,
  limits: DictionaryLimits,
): Promise<DictdHeader> {
  const header: DictdHeader = {};
  for await (const lines of readLineBatches(index, MAX_INDEX_LINE))
    for (const line of lines) {
      if (line.bytes[0] !== 0x30 || line.bytes[1] !== 0x30) continue; // "00"
      const { word, offset, length } = indexLine(index, dict, line);
      const key = headerKey(word);
      if (!key || key === 'other') continue;
      const bytes = dict.read(offset, length, bytesFor(limits));
      header[key] = utf8At(dict.file, offset, bytes, bytes.length < length);
    }
  return header;
}

/**
 * A dictd dictionary (docs/dictionary-formats.md, "dictd"): the `.index` read line by line, each
 * definition read from the `.dict` at the position its line gives.
 */
export async function openDictd(
  index: DictionaryFile,
  dictFile: DictionaryFile,
  limits: DictionaryLimits,
): Promise<OpenedDictionary> {
  const dict = await DictData.open(dictFile, limits);
  let header: DictdHeader;
  try {
    header = await readHeader(index, dict, limits);
  } catch (error) {
    await dict.close();
    throw error;
  }
  let skipped = 0;
  async function* entries(): AsyncGenerator<ParsedEntry> {
    const count = new EntryCount(index.name, limits.entries);
    const maxBytes = bytesFor(limits);
    skipped = 0;
    for await (const lines of readLineBatches(index, MAX_INDEX_LINE))
      for (const line of lines) {
        if (line.bytes.length === 0) continue;
        const { word, offset, length } = indexLine(index, dict, line);
        if (headerKey(word)) continue;
        const bytes = dict.read(offset, length, maxBytes);
        const entry = dictdEntry(word, utf8At(dictFile, offset, bytes, bytes.length < length));
        const headword = plainText(entry.headword);
        const definition = plainText(entry.definition);
        // A phrase as long as a prayer is no word a reader taps; an entry with no meaning says nothing.
        if (!headword || headword.length > MAX_HEADWORD || !definition) {
          skipped++;
          continue;
        }
        count.add(`line ${line.number}`);
        const pos = entry.pos && plainText(entry.pos);
        yield {
          headword,
          definition: withinLimit(definition, limits.definitionChars),
          pos: pos ? shortened(pos, MAX_POS) : null,
        };
      }
  }
  return {
    format: 'dictd',
    meta: dictdMeta(header),
    entries,
    get skipped() {
      return skipped;
    },
    close: () => dict.close(),
  };
}
