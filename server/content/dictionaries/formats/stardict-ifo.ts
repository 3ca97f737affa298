import { readFile } from 'node:fs/promises';
import { shortened } from '../../../platform/common/cut-text';
import { MAX_LICENCE, MAX_NAME } from './entry-limits';
import { htmlToText } from './safe-text';
import { DictionaryFileError, type DictionaryFile, type DictionaryMeta } from './types';

/** What a StarDict `.ifo` says (its keys as StarDict's own documentation names them). */
export interface StarDictInfo {
  wordcount: number;
  idxfilesize: number;
  synwordcount: number;
  /** 32 or 64: the width of the offsets in the `.idx`. */
  offsetBits: 32 | 64;
  /** The type of every entry's fields (`m`, `h`, `tm`…), or null when each entry names its own. */
  sametypesequence: string | null;
  meta: DictionaryMeta;
}

const MAGIC = "StarDict's dict ifo file";
/** An `.ifo` is a few lines; a bigger one is not one. */
const MAX_IFO_BYTES = 64 * 1024;

/** Reads and checks the `.ifo`: its first line, its version, and the counts the other files must agree with. */
export async function readIfo(file: DictionaryFile): Promise<StarDictInfo> {
  if (file.size > MAX_IFO_BYTES)
    throw new DictionaryFileError(
      file.name,
      null,
      `is larger than ${MAX_IFO_BYTES} bytes: it is not a StarDict .ifo.`,
    );
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(file.path));
  } catch {
    throw new DictionaryFileError(file.name, null, 'is not valid UTF-8.');
  }
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines[0].trim() !== MAGIC)
    throw new DictionaryFileError(file.name, 'line 1', `is not “${MAGIC}”: it is not a StarDict .ifo.`);
  const values = new Map<string, { value: string; line: number }>();
  lines.slice(1).forEach((line, i) => {
    const at = line.indexOf('=');
    if (at > 0) values.set(line.slice(0, at).trim(), { value: line.slice(at + 1).trim(), line: i + 2 });
  });
  const wrong = (key: string, problem: string) => {
    const found = values.get(key);
    return new DictionaryFileError(file.name, found ? `line ${found.line}` : null, problem);
  };
  const count = (key: string, required: boolean): number => {
    const found = values.get(key);
    if (!found) {
      if (required) throw wrong(key, `has no ${key}.`);
      return 0;
    }
    if (!/^\d{1,15}$/.test(found.value))
      throw wrong(key, `has a ${key} (“${found.value}”) that is not a number.`);
    return Number(found.value);
  };
  const version = values.get('version')?.value;
  if (version !== '2.4.2' && version !== '3.0.0')
    throw wrong('version', `has version “${version ?? ''}”; StarDict 2.4.2 and 3.0.0 are read.`);
  const bits = values.get('idxoffsetbits')?.value ?? '32';
  if (bits !== '32' && !(bits === '64' && version === '3.0.0'))
    throw wrong('idxoffsetbits', `has idxoffsetbits “${bits}”: 32, or 64 from version 3.0.0.`);
  const sequence = values.get('sametypesequence')?.value || null;
  if (sequence && !/^[a-zA-Z]+$/.test(sequence))
    throw wrong('sametypesequence', `has a sametypesequence (“${sequence}”) that is not type letters.`);
  return {
    wordcount: count('wordcount', true),
    idxfilesize: count('idxfilesize', true),
    synwordcount: count('synwordcount', false),
    offsetBits: bits === '64' ? 64 : 32,
    sametypesequence: sequence,
    meta: ifoMeta(values),
  };
}

const LICENSING = /licen[cs]e|copyright|\(c\)|©|public domain|creative commons|\bGPL\b/i;

/**
 * - name: `bookname`;
 * - licence: the `description` when it speaks of a licence or copyright (StarDict has no licence key);
 * - attribution: the book's name, its `author` and its `website`.
 */
function ifoMeta(values: Map<string, { value: string }>): DictionaryMeta {
  const text = (key: string) => htmlToText(values.get(key)?.value ?? '');
  const meta: DictionaryMeta = {};
  const [name, author, website, description] = ['bookname', 'author', 'website', 'description'].map(text);
  if (name) meta.name = shortened(name, MAX_NAME);
  if (description && LICENSING.test(description)) meta.licence = shortened(description, MAX_LICENCE);
  const by = [name, author && `by ${author}`].filter(Boolean).join(' ');
  const attribution = [by, website].filter(Boolean).join(', ');
  if (attribution) meta.attribution = shortened(attribution, MAX_LICENCE);
  return meta;
}
