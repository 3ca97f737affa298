/**
 * Where a word card's meaning came from, as /words and the review say it under the meaning: nothing for
 * the phrase's glossary (the usual case), the dictionary's name for a word saved from a lookup
 * (docs/lookup.md, "Saving a word").
 */
export function meaningSource(word: { source: string | null; source_name: string | null }): string | null {
  if (word.source !== 'dictionary') return null;
  return word.source_name ? `Meaning from ${word.source_name}` : 'Meaning from a dictionary';
}
