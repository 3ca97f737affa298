import { TextDecoder } from 'node:util';
import { lineText, readLineBatches, type RawLine } from '../../dictionaries/formats/line-reader';
import { DictionaryFileError, type DictionaryFile } from '../../dictionaries/formats/types';
import { hasControl } from '../../dictionaries/formats/safe-text';
import { MAX_LINE_BYTES, type FormLemma, type Line } from '../types';
import { parseAff, readFlags, splitAtSlash, type Affixes } from './aff';
import { expandStem } from './expand';

/** The widest form or lemma the table holds (word_forms.form, .lemma); longer ones are left out. */
export const FORM_MAX = 200;

/** Why a UTF-16 file is refused (decoderFor, refuseUtf16). */
const UTF16 = 'is UTF-16, which is not supported: save the files as UTF-8';

/**
 * A decoder for a Hunspell `SET` name or a WHATWG label ("ISO8859-1", "microsoft-cp1251"), or the
 * reason there is none. UTF-16 is refused: its "\n" is two bytes, and lines are split on the byte 0x0a
 * (readLineBatches), which would cut its characters in half.
 */
export function decoderFor(encoding: string): TextDecoder | string {
  const name = encoding.trim().toLowerCase();
  const label = name
    .replace(/^iso8859-?(\d+)$/, 'iso-8859-$1')
    .replace(/^(?:microsoft-)?cp(125\d)$/, 'windows-$1');
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true, ignoreBOM: true });
  } catch {
    return `the encoding "${encoding}" is not supported`;
  }
  return decoder.encoding.startsWith('utf-16') ? `the encoding "${encoding}" ${UTF16}` : decoder;
}

/** Refuses a line 1 that starts with UTF-16's byte order mark (FF FE or FE FF), before decoding it. */
function refuseUtf16(file: DictionaryFile, line: RawLine): void {
  const [a, b] = line.bytes;
  if (line.number === 1 && ((a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)))
    throw new DictionaryFileError(file.name, 'line 1', UTF16);
}

/** Reads an .aff file (2 MB at most: held as lines): its encoding (for the .dic too) and its affixes. */
export async function readAff(aff: DictionaryFile): Promise<{ affixes: Affixes; decoder: TextDecoder }> {
  const raw: RawLine[] = [];
  for await (const batch of readLineBatches(aff, MAX_LINE_BYTES)) raw.push(...batch);
  if (raw.length) refuseUtf16(aff, raw[0]);
  // `SET` is read as ASCII, before anything else can be decoded; UTF-8 by default.
  const set = raw.find((line) => /^[ \t]*SET[ \t]/.test(line.bytes.toString('latin1')));
  const name = set ? (set.bytes.toString('latin1').trim().split(/\s+/)[1] ?? '') : 'UTF-8';
  const decoder = decoderFor(name);
  if (typeof decoder === 'string')
    throw new DictionaryFileError(aff.name, `line ${set?.number ?? 0}`, decoder);
  const lines = raw.map((line): Line => ({ text: lineText(aff, line, decoder), number: line.number }));
  return { affixes: parseAff(lines, aff.name), decoder };
}

/**
 * One line of a .dic: the stem and its flags. Morphological fields, after a tab or a space (" po:noun"),
 * are ignored; other spaces belong to the stem, as Hunspell reads them ("Reino Unido").
 */
export function parseDicLine(
  affixes: Affixes,
  text: string,
): { stem: string; flags: string[] } | string | null {
  const end = text.search(/\t| \S\S:/);
  const entry = (end === -1 ? text : text.slice(0, end)).trim();
  if (!entry) return null;
  const [stem, flagText] = splitAtSlash(entry);
  if (!stem) return null;
  if (hasControl(stem)) return 'the stem holds a control character';
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
  for await (const batch of readLineBatches(dic, MAX_LINE_BYTES)) {
    for (const line of batch) {
      const { number } = line;
      refuseUtf16(dic, line);
      const text = lineText(dic, line, decoder);
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
}
