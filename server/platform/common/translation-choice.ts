/**
 * The one translation rule (docs/practice.md, "Translations"): which of a phrase's translations a learner
 * sees. The reader, dictation (which shows the reader's row), review, /words and the exports all choose
 * with this function, so the same phrase reads the same everywhere. Pure: the site imports it too.
 */
import { withFallbacks } from './language-tags';

/** A phrase's translation as a card or the reader shows it. */
export interface ChosenTranslation {
  /** A canonical BCP 47 tag ("en", "pt-BR"). */
  language: string;
  text: string;
}

/**
 * The translation in the first of `preferred` (best first) that `available` has, each tag followed by its
 * bare language ("en-GB", then "en"), tags of the book's own language left out (nobody needs a French
 * phrase translated into French); null when none of them is there.
 */
export function chooseTranslation(
  available: Readonly<Record<string, string>> | null | undefined,
  preferred: readonly string[],
  bookLanguage?: string | null,
): ChosenTranslation | null {
  if (!available) return null;
  const language = withFallbacks(preferred, bookLanguage).find(
    (tag) => Object.hasOwn(available, tag) && available[tag] !== '',
  );
  return language ? { language, text: available[language] } : null;
}
