import { DictionaryFileError } from '../../dictionaries/formats/types';
import type { Line } from '../types';
import { compileCondition } from './condition';
import { flagMode, splitFlags, type FlagMode } from './flags';

/** One line of a PFX or SFX class: what to strip, what to add, the flags the result carries on. */
export interface AffixEntry {
  strip: string;
  append: string;
  /** Continuation flags (`append/FLAGS`): further affixes of the result, or NEEDAFFIX and the like. */
  flags: ReadonlySet<string>;
  condition: RegExp;
}

export interface AffixClass {
  flag: string;
  kind: 'PFX' | 'SFX';
  /** "Y": may combine with an affix of the other kind on the same stem. */
  cross: boolean;
  entries: AffixEntry[];
}

/** What the expansion needs of an .aff file; every other directive (REP, TRY, COMPOUND*, …) is ignored. */
export interface Affixes {
  mode: FlagMode;
  /** `AF` flag aliases: `aliases[n - 1]` are the flags a field "n" stands for. */
  aliases: string[][];
  prefixes: Map<string, AffixClass>;
  suffixes: Map<string, AffixClass>;
  needAffix?: string;
  onlyInCompound?: string;
  forbidden?: string;
  circumfix?: string;
  /** FULLSTRIP: an affix may strip the whole stem. */
  fullStrip: boolean;
}

const SINGLE_FLAGS = {
  NEEDAFFIX: 'needAffix',
  PSEUDOROOT: 'needAffix',
  ONLYINCOMPOUND: 'onlyInCompound',
  FORBIDDENWORD: 'forbidden',
  CIRCUMFIX: 'circumfix',
} as const;

/** The flags of a field: an alias number when the file has `AF` lines, else flags in the file's mode. */
export function readFlags(affixes: Affixes, text: string): string[] | string {
  if (affixes.aliases.length && /^\d+$/.test(text)) {
    return affixes.aliases[Number(text) - 1] ?? `the flag alias ${text} is not defined by an AF line`;
  }
  return splitFlags(text, affixes.mode);
}

/** The part before the first "/" that no backslash escapes, and the part after it (or null). */
export function splitAtSlash(text: string): [string, string | null] {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === '/') i++;
    else if (text[i] === '/') return [text.slice(0, i).replace(/\\\//g, '/'), text.slice(i + 1)];
  }
  return [text.replace(/\\\//g, '/'), null];
}

/** Parses a decoded .aff file (its SET already applied). Throws DictionaryFileError naming the line. */
export function parseAff(lines: Iterable<Line>, file: string): Affixes {
  const affixes: Affixes = {
    mode: 'char',
    aliases: [],
    prefixes: new Map(),
    suffixes: new Map(),
    fullStrip: false,
  };
  let open: { affix: AffixClass; left: number; header: number } | null = null;
  let aliasesLeft = 0;
  for (const { text, number } of lines) {
    const fail = (problem: string): never => {
      throw new DictionaryFileError(file, `line ${number}`, problem);
    };
    const fields = text.trim().split(/\s+/);
    const [keyword] = fields;
    if (!keyword || keyword.startsWith('#')) continue;
    if (open) {
      if (keyword !== open.affix.kind || fields[1] !== open.affix.flag) {
        fail(
          `expected ${open.left} more ${open.affix.kind} ${open.affix.flag} lines (line ${open.header} says so)`,
        );
      }
      open.affix.entries.push(affixEntry(affixes, fields, open.affix.kind, fail));
      if (--open.left === 0) open = null;
      continue;
    }
    if (aliasesLeft > 0 && keyword === 'AF') {
      const flags = splitFlags(fields[1] ?? '', affixes.mode);
      affixes.aliases.push(typeof flags === 'string' ? fail(flags) : flags);
      aliasesLeft--;
      continue;
    }
    if (keyword === 'PFX' || keyword === 'SFX') {
      const [, flag, cross, count] = fields;
      if (!flag || !/^[YN]$/.test(cross ?? '') || !/^\d+$/.test(count ?? '')) {
        fail(`expected "${keyword} flag Y|N count"`);
      }
      const flags = splitFlags(flag, affixes.mode);
      if (typeof flags === 'string' || flags.length !== 1) fail(`"${flag}" is not one flag`);
      const classes = keyword === 'PFX' ? affixes.prefixes : affixes.suffixes;
      const affix = classes.get(flag) ?? { flag, kind: keyword, cross: cross === 'Y', entries: [] };
      classes.set(flag, affix);
      if (Number(count) > 0) open = { affix, left: Number(count), header: number };
    } else if (keyword === 'FLAG') {
      affixes.mode = flagMode(fields[1]) ?? fail(`unknown flag type "${fields[1] ?? ''}"`);
    } else if (keyword === 'AF') {
      if (!/^\d+$/.test(fields[1] ?? '')) fail('expected "AF count"');
      aliasesLeft = Number(fields[1]);
    } else if (keyword === 'FULLSTRIP') {
      affixes.fullStrip = true;
    } else if (keyword in SINGLE_FLAGS) {
      const flags = splitFlags(fields[1] ?? '', affixes.mode);
      if (typeof flags === 'string' || flags.length !== 1) fail(`${keyword} needs one flag`);
      affixes[SINGLE_FLAGS[keyword as keyof typeof SINGLE_FLAGS]] = (flags as string[])[0];
    }
  }
  if (open) {
    throw new DictionaryFileError(
      file,
      `line ${open.header}`,
      `${open.affix.kind} ${open.affix.flag} announces ${open.affix.entries.length + open.left} lines, the file ends after ${open.affix.entries.length}`,
    );
  }
  return affixes;
}

function affixEntry(
  affixes: Affixes,
  fields: string[],
  kind: 'PFX' | 'SFX',
  fail: (problem: string) => never,
): AffixEntry {
  const [, , strip, appendField, condition = '.'] = fields;
  if (strip === undefined || appendField === undefined)
    fail(`expected "${kind} flag strip append condition"`);
  const [append, flagText] = splitAtSlash(appendField);
  const flags = flagText === null ? [] : readFlags(affixes, flagText);
  if (typeof flags === 'string') return fail(flags);
  const compiled = compileCondition(condition, kind === 'PFX' ? 'start' : 'end');
  if (typeof compiled === 'string') return fail(compiled);
  return {
    strip: strip === '0' ? '' : strip,
    append: append === '0' ? '' : append,
    flags: new Set(flags),
    condition: compiled,
  };
}
