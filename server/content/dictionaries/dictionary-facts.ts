import { shortened } from '../../platform/common/cut-text';
import { canonicalTag } from '../../platform/common/language-tags';
import type { DictionaryFacts } from './dictionaries.repository';
import { NAME_MAX, NOTE_MAX } from './dictionaries.dto';
import type { DictionaryMeta, OpenedDictionary } from './formats/types';

/** What the administrator's form gave (blank fields already dropped by the DTO). */
export interface FormFacts {
  name?: string;
  licence?: string;
  attribution?: string;
  source?: string;
  target?: string;
}

/** The parts of a dictionary's file names that say what kind of part it is, not which dictionary. */
const PART_SUFFIX = /(?:\.(?:dict|index|ifo|idx|syn|tsv|csv|txt|dz|gz))+$/i;

/** "freedict-spa-eng" for `freedict-spa-eng.dict.dz`: a name for a dictionary whose files give none. */
export function nameFromFile(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.replace(PART_SUFFIX, '').trim() || base.trim() || 'Dictionary';
}

/** A file's text for a column: trimmed, cut to the column with an ellipsis; undefined when blank. */
function fromFile(value: string | undefined, max: number): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? shortened(trimmed, max) : undefined;
}

/**
 * The metadata an import settles (docs/dictionaries.md, "Metadata"): each field from the form, else
 * from the file, else (a replacement) what the dictionary had. A name falls back last to the file name;
 * the languages come from the form or stay as they were.
 */
export function settleFacts(
  form: FormFacts,
  opened: Pick<OpenedDictionary, 'format' | 'meta'>,
  fileNames: string[],
  current: Omit<DictionaryFacts, 'entries' | 'format'> | null,
): Omit<DictionaryFacts, 'entries'> {
  const meta: DictionaryMeta = opened.meta ?? {};
  const tag = (value: string | undefined) => (value ? canonicalTag(value) : null);
  return {
    name:
      form.name ??
      fromFile(meta.name, NAME_MAX) ??
      current?.name ??
      shortened(nameFromFile(fileNames[0] ?? ''), NAME_MAX),
    source: tag(form.source) ?? current?.source ?? '',
    target: tag(form.target) ?? current?.target ?? '',
    format: opened.format,
    licence: form.licence ?? fromFile(meta.licence, NOTE_MAX) ?? current?.licence ?? null,
    attribution: form.attribution ?? fromFile(meta.attribution, NOTE_MAX) ?? current?.attribution ?? null,
  };
}
