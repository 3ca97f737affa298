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
