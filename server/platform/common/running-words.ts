/**
 * A text's running words as word status and coverage count them (docs/word-status.md): the language's own
 * word boundaries (`Intl.Segmenter`, word granularity, word-like segments: the words the reader lets a
 * learner tap), those holding a letter (not "1999"), each as its form: composed (NFC) and in the
 * language's lower case. Pure TypeScript, the same rule on the server and in the reader.
 */

/** The longest form counted: no word of a phrase is longer, and the columns hold 100 characters. */
export const MAX_FORM = 100;

const LETTER = /\p{L}/u;
const segmenters = new Map<string, Intl.Segmenter>();

/**
 * The language's word segmenter, one per language (the reader's too: site/lib/lookup/words.ts); undefined
 * in a browser without `Intl.Segmenter` (Node has it).
 */
export function wordSegmenter(lang: string): Intl.Segmenter | undefined {
  if (typeof Intl.Segmenter !== 'function') return undefined;
  let found = segmenters.get(lang);
  if (!found) {
    if (segmenters.size >= 100) segmenters.clear();
    // A tag ICU does not know falls back to the default rules rather than throwing.
    try {
      found = new Intl.Segmenter(lang || undefined, { granularity: 'word' });
    } catch {
      found = new Intl.Segmenter(undefined, { granularity: 'word' });
    }
    segmenters.set(lang, found);
  }
  return found;
}

/** The lower-case, composed form a status and a count are kept under ("Häuser" → "häuser"). */
export function formOf(word: string, lang: string): string {
  const composed = word.normalize('NFC').trim();
  try {
    return composed.toLocaleLowerCase(lang || undefined);
  } catch {
    return composed.toLowerCase();
  }
}

/** The words of a text as written, in order, repeats included: those a count or a status can take. */
export function runningWords(text: string, lang: string): string[] {
  const words: string[] = [];
  for (const part of wordSegmenter(lang)?.segment(text.normalize('NFC')) ?? [])
    if (part.isWordLike && part.segment.length <= MAX_FORM && LETTER.test(part.segment))
      words.push(part.segment);
  return words;
}

/** Each form of the texts with its count and its spellings as written (for the word forms' lemmas). */
export function countForms(
  texts: Iterable<string>,
  lang: string,
): Map<string, { count: number; spellings: Set<string> }> {
  const forms = new Map<string, { count: number; spellings: Set<string> }>();
  for (const text of texts)
    for (const word of runningWords(text, lang)) {
      const form = formOf(word, lang);
      // Lower case may lengthen a word ("İ" outside Turkish): the columns hold MAX_FORM.
      if (form.length > MAX_FORM) continue;
      const found = forms.get(form);
      if (found) {
        found.count++;
        found.spellings.add(word);
      } else forms.set(form, { count: 1, spellings: new Set([word, form]) });
    }
  return forms;
}
