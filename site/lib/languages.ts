/**
 * Languages as the member pages offer them: the common tags of the pickers ("I speak" on /profile, a
 * phrase's translations in the admin form, a book's language), their names, and the tag check the server
 * applies to translations and `speaks` (server/platform/common/language-tags.ts, docs/practice.md), run here first
 * so that a typo is caught before the request.
 */
import { languageName } from '../../server/content/catalogue/languages';
import { canonicalTag, LANGUAGE_TAG_MAX } from '../../server/platform/common/language-tags';

export { canonicalTag, LANGUAGE_TAG_MAX, languageName };

/** The languages offered first: the most learnt and published ones, and the regional forms readers ask for. */
export const COMMON_TAGS = [
  'ar',
  'ca',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'en-GB',
  'en-US',
  'es',
  'es-MX',
  'eu',
  'fi',
  'fr',
  'fr-CA',
  'gl',
  'he',
  'hi',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'nb',
  'nl',
  'pl',
  'pt',
  'pt-BR',
  'pt-PT',
  'ro',
  'ru',
  'sv',
  'th',
  'tr',
  'uk',
  'vi',
  'zh',
] as const;

/** The common languages with their English names, in the order of those names. */
export const COMMON_LANGUAGES = COMMON_TAGS.map((tag): { tag: string; name: string } => ({
  tag,
  name: languageName(tag),
})).sort((a, b) => a.name.localeCompare(b.name, 'en'));

/**
 * A language's name in itself ("Deutsch" for de), which its speakers look for; null when Intl has none or
 * it is the English name already.
 */
export function autonym(tag: string): string | null {
  try {
    const own = new Intl.DisplayNames([tag], { type: 'language', fallback: 'none' }).of(tag);
    return own && own !== languageName(tag) ? own : null;
  } catch {
    return null;
  }
}

/** "German — Deutsch": the English name, with the language's own name when it differs. */
export function languageLabel(tag: string): string {
  const own = autonym(tag);
  return own ? `${languageName(tag)} — ${own}` : languageName(tag);
}
