/**
 * `GET /api/v1/lookup` as the reader asks it (docs/practice.md, "Word lookups"): the book's language, the
 * word as written and the phrase it was tapped in (for the phrase's glossary). Answers are kept in memory
 * for the page, per phrase and word, so a second tap opens filled; a failed one is forgotten, so the next
 * tap asks again.
 */
import { api } from '../api';

export interface LookupEntry {
  headword: string;
  definition: string;
  /** The lemma the entry was found through, when the word is an inflected form of it. */
  lemma: string | null;
  dictionary: { name: string; attribution: string | null };
}

export interface LookupAnswer {
  word: string;
  matched: 'glossary' | 'form' | 'lemma' | 'folded' | null;
  lemmas: string[];
  glossary: { term: string; meaning: string } | null;
  entries: LookupEntry[];
}

const answers = new Map<string, Promise<LookupAnswer>>();

export function lookUp(lang: string, word: string, phraseId: number): Promise<LookupAnswer> {
  const key = `${lang}\n${phraseId}\n${word}`;
  let answer = answers.get(key);
  if (!answer) {
    const query = new URLSearchParams({ lang, word, phrase_id: String(phraseId) });
    answer = api<{ data: LookupAnswer }>(`lookup?${query.toString()}`).then(({ data }) => data);
    answers.set(key, answer);
    answer.catch(() => answers.delete(key));
  }
  return answer;
}

/** An entry's definition as a card's meaning: its first lines, at most 500 characters. */
export function meaningOf(definition: string): string {
  const lines = definition
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, 3)
    .join('\n');
  return lines.length > 500 ? `${lines.slice(0, 499)}…` : lines;
}

/**
 * The entries grouped as the sheet shows them: by headword (the form's own first, then each lemma's, in
 * the server's order), and inside a headword by dictionary, so each dictionary's attribution sits under
 * its own entries.
 */
export function groupEntries(entries: LookupEntry[]): Array<{
  headword: string;
  lemma: string | null;
  dictionaries: Array<{ dictionary: LookupEntry['dictionary']; entries: LookupEntry[] }>;
}> {
  const groups: ReturnType<typeof groupEntries> = [];
  for (const entry of entries) {
    let group = groups.find((found) => found.headword === entry.headword);
    if (!group) {
      group = { headword: entry.headword, lemma: entry.lemma, dictionaries: [] };
      groups.push(group);
    }
    let byDictionary = group.dictionaries.find((found) => found.dictionary.name === entry.dictionary.name);
    if (!byDictionary) {
      byDictionary = { dictionary: entry.dictionary, entries: [] };
      group.dictionaries.push(byDictionary);
    }
    byDictionary.entries.push(entry);
  }
  return groups;
}
