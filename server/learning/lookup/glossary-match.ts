import type { GlossaryEntry } from '../../content/catalogue/glossary';

/** Segmenters per language, kept: making one loads ICU's rules, which costs more than a lookup. */
const segmenters = new Map<string, Intl.Segmenter>();

/** `lang` undefined (a book without a language): the server's default rules, kept under "". */
function segmenterFor(lang: string | undefined): Intl.Segmenter {
  let segmenter = segmenters.get(lang ?? '');
  if (!segmenter) {
    if (segmenters.size >= 100) segmenters.clear();
    segmenter = new Intl.Segmenter(lang, { granularity: 'word' });
    segmenters.set(lang ?? '', segmenter);
  }
  return segmenter;
}

/** The words of a text as the reader taps them (Intl.Segmenter, word granularity), lower-cased. */
function wordsOf(text: string, lang: string | undefined): string[] {
  const segmenter = segmenterFor(lang);
  return [...segmenter.segment(text)]
    .filter((segment) => segment.isWordLike)
    .map((segment) => segment.segment.toLocaleLowerCase(lang));
}

/**
 * The glossary entry a learner means by tapping `word` in the phrase, case aside: the term that is the
 * word; else the first term that holds it as a whole word ("revoir" in "au revoir", not "voir"); else the
 * term that is one of its lemmas ("casas" finds the author's "casa"). A term with an empty meaning still
 * counts: the author named it.
 */
export function matchGlossary(
  glossary: GlossaryEntry[],
  word: string,
  lang: string | undefined,
  lemmas: string[] = [],
): GlossaryEntry | null {
  const lower = word.toLocaleLowerCase(lang);
  const terms = glossary.map((entry) => entry.term.toLocaleLowerCase(lang));
  let at = terms.indexOf(lower);
  if (at === -1) at = terms.findIndex((term) => term.includes(lower) && wordsOf(term, lang).includes(lower));
  if (at === -1) {
    const lowerLemmas = lemmas.map((lemma) => lemma.toLocaleLowerCase(lang));
    at = terms.findIndex((term) => lowerLemmas.includes(term));
  }
  return at === -1 ? null : glossary[at];
}
