import { openDelimited } from './delimited';
import { openDictd } from './dictd';
import { openStarDict } from './stardict';
import {
  DictionaryFileError,
  type DictionaryFile,
  type DictionaryLimits,
  type OpenedDictionary,
} from './types';

/** What a file is to a dictionary, by its name's ending (its content is checked by the format's reader). */
type Part = 'index' | 'dict' | 'ifo' | 'idx' | 'syn' | 'tsv' | 'csv';

const ENDINGS: [RegExp, Part][] = [
  [/\.index$/i, 'index'],
  [/\.dict(?:\.dz)?$/i, 'dict'],
  [/\.ifo$/i, 'ifo'],
  [/\.idx(?:\.gz)?$/i, 'idx'],
  [/\.syn$/i, 'syn'],
  [/\.(?:tsv|txt)$/i, 'tsv'],
  [/\.csv$/i, 'csv'],
];

const FORMAT_OF: Record<Part, 'dictd' | 'stardict' | 'tsv' | 'csv' | null> = {
  index: 'dictd',
  ifo: 'stardict',
  idx: 'stardict',
  syn: 'stardict',
  dict: null, // dictd's and StarDict's alike: the other parts tell
  tsv: 'tsv',
  csv: 'csv',
};

/** The name without the ending that made it a part: `freedict-spa-eng.dict.dz` is `freedict-spa-eng`. */
const stemOf = (name: string, ending: RegExp) => name.replace(ending, '');

/**
 * Recognises one dictionary among the files (docs/dictionary-formats.md): dictd (`.index` and `.dict`
 * or `.dict.dz`), StarDict (`.ifo`, `.idx`, `.dict` or `.dict.dz`, optionally `.syn`), or one TSV or CSV.
 * The names say which part each file is; the parts must share one name, every part the format needs
 * must be there and none twice; the format's reader then checks each file's content. Throws
 * DictionaryFileError, naming the file, for anything else.
 */
export async function openDictionary(
  files: DictionaryFile[],
  limits: DictionaryLimits,
): Promise<OpenedDictionary> {
  if (!files.length)
    throw new DictionaryFileError('files', null, 'no file was sent: a dictionary is one or more files.');
  const parts = new Map<Part, DictionaryFile>();
  const stems = new Map<string, DictionaryFile>();
  const formats = new Map<string, DictionaryFile>();
  for (const file of files) {
    const found = ENDINGS.find(([ending]) => ending.test(file.name));
    if (!found)
      throw new DictionaryFileError(
        file.name,
        null,
        'is not a dictionary file: dictd (.index, .dict, .dict.dz), StarDict (.ifo, .idx, .dict, .dict.dz, .syn), TSV (.tsv, .txt) or CSV (.csv).',
      );
    const [ending, part] = found;
    if (parts.has(part))
      throw new DictionaryFileError(
        file.name,
        null,
        `is a second ${part} file, after ${parts.get(part)!.name}: send one dictionary at a time.`,
      );
    parts.set(part, file);
    stems.set(stemOf(file.name, ending), file);
    const format = FORMAT_OF[part];
    if (format) formats.set(format, file);
  }
  if (formats.size > 1) {
    const [a, b] = [...formats.values()];
    throw new DictionaryFileError(
      b.name,
      null,
      `is not of the same format as ${a.name}: send one dictionary at a time.`,
    );
  }
  if (stems.size > 1) {
    const [a, b] = [...stems.values()];
    throw new DictionaryFileError(
      b.name,
      null,
      `does not share its name with ${a.name}: the parts of a dictionary have one name.`,
    );
  }
  const format = formats.keys().next().value;
  const part = (name: Part) => parts.get(name) ?? null;
  const need = (name: Part, what: string, by: DictionaryFile) => {
    const file = part(name);
    if (!file) throw new DictionaryFileError(by.name, null, `needs its ${what} beside it.`);
    return file;
  };
  switch (format) {
    case 'dictd': {
      const index = part('index')!;
      return openDictd(index, need('dict', '.dict or .dict.dz', index), limits);
    }
    case 'stardict': {
      const ifo = need('ifo', '.ifo', (part('idx') ?? part('syn'))!);
      return openStarDict(
        {
          ifo,
          idx: need('idx', '.idx', ifo),
          dict: need('dict', '.dict or .dict.dz', ifo),
          syn: part('syn'),
        },
        limits,
      );
    }
    case 'tsv':
    case 'csv':
      return openDelimited(parts.get(format)!, format, limits);
    default:
      throw new DictionaryFileError(
        part('dict')!.name,
        null,
        'needs its index beside it: a dictd .index, or a StarDict .ifo and .idx.',
      );
  }
}
