import type { AffixClass, AffixEntry, Affixes } from './aff';

/**
 * Every form of one stem (docs/word-forms.md): the stem itself (unless NEEDAFFIX), each suffix, each
 * prefix, each prefix with each suffix when both classes say "Y", and the suffixes (and prefixes) a
 * suffix's continuation flags allow ("canción" + S → "canciones"; twofold, as Hunspell checks), plus the
 * suffixes a prefix's continuation allows. Forms of ONLYINCOMPOUND stems or affixes are left out, and so
 * are FORBIDDENWORD stems; a CIRCUMFIX affix only counts with its other half. Compounding is not done.
 */
export function expandStem(affixes: Affixes, stem: string, flags: readonly string[]): Set<string> {
  const forms = new Set<string>();
  const has = (flag: string | undefined, set: { has(flag: string): boolean }) =>
    flag !== undefined && set.has(flag);
  const own = new Set(flags);
  if (has(affixes.forbidden, own) || has(affixes.onlyInCompound, own)) return forms;
  if (!has(affixes.needAffix, own)) forms.add(stem);

  /** Needs another affix to be a word: NEEDAFFIX on the entry, or half of a circumfix. */
  const unfinished = (entry: AffixEntry) =>
    has(affixes.needAffix, entry.flags) || has(affixes.circumfix, entry.flags);
  const usable = (entry: AffixEntry) => !has(affixes.onlyInCompound, entry.flags);
  const circumfix = (entry: AffixEntry) => has(affixes.circumfix, entry.flags);
  const classes = (flagSet: Iterable<string>, of: Map<string, AffixClass>) =>
    [...flagSet].flatMap((flag) => of.get(flag) ?? []);
  const prefixClasses = classes(own, affixes.prefixes);

  /** The prefixed forms of `word`, for prefixes of `among`; `suffix` is the suffix already on it, if any. */
  const addPrefixes = (word: string, among: AffixClass[], suffix: AffixEntry | null) => {
    for (const affix of among) {
      for (const entry of affix.entries) {
        if (!usable(entry) || (suffix !== null && circumfix(entry) !== circumfix(suffix))) continue;
        const prefixed = applyPrefix(affixes, entry, word);
        if (prefixed === null) continue;
        // Alone, a circumfix prefix or a NEEDAFFIX one is not a word; with a suffix it is.
        if (suffix !== null || !unfinished(entry)) forms.add(prefixed);
        if (suffix === null) {
          for (const next of classes(entry.flags, affixes.suffixes))
            for (const tail of next.entries) {
              const both =
                usable(tail) && circumfix(tail) === circumfix(entry)
                  ? applySuffix(affixes, tail, prefixed)
                  : null;
              if (both !== null && !has(affixes.needAffix, tail.flags)) forms.add(both);
            }
        }
      }
    }
  };

  for (const affix of classes(own, affixes.suffixes)) {
    const crossPrefixes = affix.cross ? prefixClasses.filter((prefix) => prefix.cross) : [];
    for (const entry of affix.entries) {
      if (!usable(entry)) continue;
      const word = applySuffix(affixes, entry, stem);
      if (word === null) continue;
      if (!unfinished(entry)) forms.add(word);
      // A suffix's own continuation may name prefixes too: those combine whatever the cross-product says.
      const prefixes = [...crossPrefixes, ...classes(entry.flags, affixes.prefixes)];
      addPrefixes(word, prefixes, entry);
      for (const next of classes(entry.flags, affixes.suffixes)) {
        for (const second of next.entries) {
          if (!usable(second) || has(affixes.needAffix, second.flags)) continue;
          const twice = applySuffix(affixes, second, word);
          if (twice === null) continue;
          // Only the second suffix of a circumfix pair needs the prefix; the stem's cross prefixes go on too.
          if (!circumfix(second) && !circumfix(entry)) forms.add(twice);
          addPrefixes(twice, next.cross ? prefixes : [], second);
        }
      }
    }
  }
  addPrefixes(stem, prefixClasses, null);
  return forms;
}

/** `word` with a suffix entry applied, or null when its strip or condition does not fit. */
export function applySuffix(affixes: Affixes, entry: AffixEntry, word: string): string | null {
  if (!word.endsWith(entry.strip)) return null;
  if (entry.strip.length >= word.length && !(affixes.fullStrip && entry.strip.length === word.length))
    return null;
  if (!entry.condition.test(word)) return null;
  return word.slice(0, word.length - entry.strip.length) + entry.append;
}

/** `word` with a prefix entry applied, or null when its strip or condition does not fit. */
export function applyPrefix(affixes: Affixes, entry: AffixEntry, word: string): string | null {
  if (!word.startsWith(entry.strip)) return null;
  if (entry.strip.length >= word.length && !(affixes.fullStrip && entry.strip.length === word.length))
    return null;
  if (!entry.condition.test(word)) return null;
  return entry.append + word.slice(entry.strip.length);
}
