/**
 * Languages as the catalogue shows and filters them. A book's language is a BCP 47 tag kept in its
 * canonical spelling ("pt-PT"); URLs use it in lower case ("/books?lang=pt-pt", "/learn/pt-pt"); pages
 * name it in English ("European Portuguese"), one fixed form that a cached page can hold whoever reads it.
 * Books without a language are "Other language", `lang=none`.
 */

/** The facet value, and the URL word, of books without a language. */
export const NO_LANGUAGE = 'none';
export const NO_LANGUAGE_NAME = 'Other language';

const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** The canonical spelling of a tag ("PT-pt" → "pt-PT"), or null when it is not a well-formed tag. */
export function canonicalTag(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** The longest tag a book keeps (the column's size). */
export const MAX_TAG_LENGTH = 35;

/**
 * Whether a book may be given this tag: well formed (Intl can spell it canonically), within the column,
 * and of a language Intl can name, so that every page can show it by name and a filter can address it.
 * Private-use and unknown codes (`qaa`, `xx`) are refused.
 */
export function isKnownLanguage(tag: string): boolean {
  const canonical = tag.length <= MAX_TAG_LENGTH ? canonicalTag(tag) : null;
  return canonical !== null && names.of(canonical.split('-')[0]) !== undefined;
}

/** A tag in its canonical spelling, or as given when it is not well formed (the forms check that first). */
export function canonicalLanguage(tag: string): string {
  return canonicalTag(tag) ?? tag;
}

/** The URL word of a language: its tag in lower case, or "none". */
export function languageKey(tag: string | null): string {
  return tag ? tag.toLowerCase() : NO_LANGUAGE;
}

/** A language's English name ("Spanish", "European Portuguese"), the tag itself when Intl has none. */
export function languageName(tag: string | null): string {
  if (!tag) return NO_LANGUAGE_NAME;
  const canonical = canonicalTag(tag);
  return (canonical && names.of(canonical)) || tag;
}
