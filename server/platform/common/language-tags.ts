/**
 * BCP 47 language tags as the practice modes take them (docs/practice.md): well formed, canonicalised by
 * `Intl.getCanonicalLocales` ("pt-br" becomes "pt-BR"), at most 35 characters (the column's width).
 * Anything odd (private-use only tags, grandfathered irregulars, spaces) is refused rather than guessed.
 */

/** The column's width (phrase_translations.language). */
export const LANGUAGE_TAG_MAX = 35;

/**
 * The part of RFC 5646's langtag (section 2.1) a translation needs: language ["-" script] ["-" region]
 * *("-" variant), the language in 2 or 3 letters. Extensions ("-u-ca-…"), private use ("x-…"), extlangs and grandfathered tags are refused:
 * no translation needs them, and each would be one more spelling of the same language.
 */
const LANGTAG = new RegExp(
  '^' +
    '[a-z]{2,3}' + // language (ISO 639; the 5-8 letter form is reserved, and would let words pass)
    '(?:-[a-z]{4})?' + // script
    '(?:-(?:[a-z]{2}|[0-9]{3}))?' + // region
    '(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*' + // variants
    '$',
  'i',
);

/** "und" (undetermined) and "root" name no language a reader could read. */
const NOT_A_LANGUAGE = /^(?:und|root)(?:-|$)/i;

/** The canonical form of a well-formed tag, or null when it is not one (or is longer than 35 characters). */
export function canonicalTag(tag: string): string | null {
  if (typeof tag !== 'string' || tag.length === 0 || tag.length > LANGUAGE_TAG_MAX) return null;
  if (!LANGTAG.test(tag) || NOT_A_LANGUAGE.test(tag)) return null;
  let canonical: string;
  try {
    [canonical] = Intl.getCanonicalLocales(tag);
  } catch {
    return null;
  }
  // Canonicalisation may replace a deprecated subtag with a longer one; the column still has to hold it.
  if (!canonical || canonical.length > LANGUAGE_TAG_MAX || !LANGTAG.test(canonical)) return null;
  return canonical;
}

/** A parsed list: the canonical tags, first occurrence kept, in the order given; or the malformed ones. */
export type ParsedTags = { ok: true; tags: string[] } | { ok: false; invalid: string[] };

/**
 * Parses a comma-separated list ("en, pt-br,de"): blanks between commas are skipped, duplicates (after
 * canonicalisation) keep their first place. Any malformed entry fails the whole list, naming it.
 */
export function parseTagList(list: string): ParsedTags {
  return canonicalTags(list.split(','));
}

/** As parseTagList, for tags already apart (a JSON array); blank entries are skipped. */
export function canonicalTags(raw: readonly string[]): ParsedTags {
  const tags: string[] = [];
  const invalid: string[] = [];
  for (const entry of raw) {
    const trimmed = typeof entry === 'string' ? entry.trim() : '';
    if (!trimmed) continue;
    const tag = canonicalTag(trimmed);
    if (tag === null) invalid.push(trimmed.slice(0, 40));
    else if (!tags.includes(tag)) tags.push(tag);
  }
  return invalid.length ? { ok: false, invalid } : { ok: true, tags };
}

/** A tag's primary language subtag, lower case ("pt" for "pt-BR"). */
export const primaryTag = (tag: string): string => tag.split('-')[0].toLowerCase();

/**
 * The tags to look a learner's translation up by, best first, as the reader asks for them
 * (site/lib/translation-language.ts): each tag, then its bare language ("en-GB", then "en": a phrase
 * translated to "en" serves an "en-GB" reader), first place kept. Tags of `bookLanguage`'s language are
 * left out: nobody needs a French phrase translated into French.
 */
export function withFallbacks(tags: readonly string[], bookLanguage?: string | null): string[] {
  const own = bookLanguage ? primaryTag(bookLanguage) : null;
  const found: string[] = [];
  for (const tag of tags) {
    if (!tag || primaryTag(tag) === own) continue;
    for (const candidate of [tag, primaryTag(tag)]) if (!found.includes(candidate)) found.push(candidate);
  }
  return found;
}
