/**
 * A card's translation on review and /words, by the reader's rule (site/lib/translation-language.ts): the
 * card carries all its phrase's translations and the browser picks with the learner's languages ("I
 * speak", else the browser's), so a member who chose none sees the English the reader shows them.
 */
import { useEffect, useState } from 'react';
import type { WordResponse } from '../../../server/learning/words/words.dto';
import { chooseTranslation, learnerLanguages, type ChosenTranslation } from '../../lib/translation-language';

/** One look-up for the whole page: every card of the list asks at once. */
let languages: Promise<string[]> | null = null;
const pageLanguages = () => (languages ??= learnerLanguages().catch(() => []));

/**
 * The card's translation; undefined while the learner's languages are still being read (nothing to show
 * yet). A card kept on a device before cards carried `translations` shows the server's choice.
 */
export function useTranslation(
  card: Pick<WordResponse, 'translation' | 'translations' | 'language'>,
): ChosenTranslation | null | undefined {
  const [preferred, setPreferred] = useState<string[] | null>(null);
  useEffect(() => {
    let live = true;
    void pageLanguages().then((tags) => live && setPreferred(tags));
    return () => {
      live = false;
    };
  }, []);
  if (!card.translations) return card.translation ?? null;
  if (preferred === null) return undefined;
  return chooseTranslation(card.translations, preferred, card.language);
}
