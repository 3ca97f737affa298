import { readFile } from 'node:fs/promises';
import type { TextDecoder } from 'node:util';
import { DictionaryFileError, type DictionaryFile } from '../../dictionaries/formats/types';
import { decoderFor, readLines, type Line } from '../lines';
import type { FormLemma } from '../types';
import { parseAff, readFlags, splitAtSlash, type Affixes } from './aff';
import { expandStem } from './expand';

/** The widest form or lemma the table holds (word_forms.form, .lemma); longer ones are left out. */
export const FORM_MAX = 200;

/** The .aff file's `SET` (read as ASCII, before anything else can be decoded), or UTF-8 by default. */
function encodingOf(bytes: Buffer): { name: string; line: number } {
  const text = bytes.toString('latin1');
  const match = /^[ \t]*SET[ \t]+(\S+)/m.exec(text);
  if (!match) return { name: 'UTF-8', line: 0 };
  return { name: match[1], line: text.slice(0, match.index).split('\n').length };
}

/** Splits a buffer into decoded lines (the .aff is small enough to read at once). */
function* bufferLines(bytes: Buffer, decoder: TextDecoder, file: string): Generator<Line> {
  let start = 0;
  for (let number = 1; start <= bytes.length; number++) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(start, end));
    } catch {
      throw new DictionaryFileError(file, `line ${number}`, `is not valid ${decoder.encoding} text`);
    }
    if (number === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    yield { text: text.endsWith('\r') ? text.slice(0, -1) : text, number };
    start = end + 1;
  }
}

/** Reads an .aff file: its encoding (for the .dic too) and its affixes. */
export async function readAff(aff: DictionaryFile): Promise<{ affixes: Affixes; decoder: TextDecoder }> {
  const bytes = await readFile(aff.path);
  const encoding = encodingOf(bytes);
  const decoder = decoderFor(encoding.name);
  if (!decoder) {
    throw new DictionaryFileError(
      aff.name,
      `line ${encoding.line}`,
      `the encoding "${encoding.name}" is not supported`,
    );
  }
  return { affixes: parseAff(bufferLines(bytes, decoder, aff.name), aff.name), decoder };
}

/** One line of a .dic: the stem and its flags; morphological fields (after a tab or space) are ignored. */
export function parseDicLine(
  affixes: Affixes,
  text: string,
): { stem: string; flags: string[] } | string | null {
  const entry = text.trim().split(/[\t ]/, 1)[0];
  if (!entry) return null;
  const [stem, flagText] = splitAtSlash(entry);
  if (!stem) return null;
  const flags = flagText === null ? [] : readFlags(affixes, flagText);
  return typeof flags === 'string' ? flags : { stem, flags };
}

/**
 * Every (form, stem) pair of a Hunspell dictionary, streamed from the .dic one stem at a time
 * (docs/word-forms.md). Pairs are distinct: a stem listed twice (homonyms with other flags) gives again
 * only the forms its earlier lines did not, which costs the stems and their flags in memory, not the forms.
 */
export async function* expandHunspell(aff: DictionaryFile, dic: DictionaryFile): AsyncGenerator<FormLemma> {
  const { affixes, decoder } = await readAff(aff);
  const seen = new Map<string, string[][]>();
  for await (const { text, number } of readLines(dic.path, dic.name, decoder)) {
    if (number === 1) {
      if (!/^\s*\d+\s*$/.test(text)) {
        throw new DictionaryFileError(dic.name, 'line 1', 'the first line should be the number of words');
      }
      continue;
    }
    // Hunspell takes a line starting with a tab as a comment.
    if (text.startsWith('\t')) continue;
    const parsed = parseDicLine(affixes, text);
    if (parsed === null) continue;
    if (typeof parsed === 'string') throw new DictionaryFileError(dic.name, `line ${number}`, parsed);
    const { stem, flags } = parsed;
    if (stem.length > FORM_MAX) continue;
    const earlier = seen.get(stem);
    const given = new Set<string>();
    for (const flagsBefore of earlier ?? [])
      for (const form of expandStem(affixes, stem, flagsBefore)) given.add(form);
    if (earlier) earlier.push(flags);
    else seen.set(stem, [flags]);
    for (const form of expandStem(affixes, stem, flags)) {
      if (form.length <= FORM_MAX && !given.has(form))
        yield { form: form.normalize('NFC'), lemma: stem.normalize('NFC') };
    }
  }
}
