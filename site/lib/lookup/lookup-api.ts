/**
 * `GET /api/v1/lookup` as the reader asks it (docs/practice.md, "Word lookups"): the book's language (left
 * out for a book without one: the server takes the phrase's), the word as written and the phrase it was
 * tapped in (for the phrase's glossary). Answers are kept in memory
 * for the page, per phrase and word, so a second tap opens filled; a failed one is forgotten, so the next
 * tap asks again.
 */
import { formOf } from '../../../server/platform/common/running-words';
import { api, ApiError } from '../api';
import { chapterLookupsKey } from '../offline/names';

export interface LookupEntry {
  headword: string;
  definition: string;
  /** The lemma the entry was found through, when the word is an inflected form of it. */
  lemma: string | null;
  dictionary: { id: number; name: string; attribution: string | null };
}

export interface LookupAnswer {
  word: string;
  /** The language of the definitions (BCP 47): the learner's, or English (docs/lookup.md). */
  target: string;
  matched: 'glossary' | 'form' | 'lemma' | 'folded' | null;
  lemmas: string[];
  glossary: { term: string; meaning: string } | null;
  entries: LookupEntry[];
  /** Answered from a downloaded chapter's lookups (offline). */
  offline?: boolean;
}

const answers = new Map<string, Promise<LookupAnswer>>();

/**
 * A word's lookup. Offline (the server cannot be reached), a downloaded chapter's lookups answer it
 * (`chapter`: where the word was tapped; docs/lookup.md, "Offline"), without the glossary step, which the
 * sheet takes from the phrase itself; with none kept, the failure stands.
 */
export function lookUp(
  lang: string,
  word: string,
  phraseId: number,
  chapter?: { book: string; chapterNo: number },
): Promise<LookupAnswer> {
  const key = `${lang}\n${phraseId}\n${word}`;
  let answer = answers.get(key);
  if (!answer) {
    const query = new URLSearchParams({ ...(lang ? { lang } : {}), word, phrase_id: String(phraseId) });
    answer = api<{ data: LookupAnswer }>(`lookup?${query.toString()}`).then(
      ({ data }) => data,
      async (error: unknown) => {
        const kept =
          error instanceof ApiError && error.status === 0 && chapter
            ? await keptLookup(chapter, lang, word)
            : null;
        if (!kept) throw error;
        return kept;
      },
    );
    answers.set(key, answer);
    // Failed, or answered from the device: asked again next time (the server may be back).
    answer.then((found) => found.offline && answers.delete(key)).catch(() => answers.delete(key));
  }
  return answer;
}

/** What a download keeps of a chapter's lookups (GET lookup/chapter). */
interface KeptLookups {
  data: {
    target: string;
    words: Record<string, { matched: LookupAnswer['matched']; lemmas: string[]; entries: LookupEntry[] }>;
  };
}

async function keptLookup(
  chapter: { book: string; chapterNo: number },
  lang: string,
  word: string,
): Promise<LookupAnswer | null> {
  if (typeof caches === 'undefined') return null;
  const kept = await caches.match(chapterLookupsKey(chapter.book, chapter.chapterNo)).catch(() => undefined);
  if (!kept) return null;
  const bundle = (await kept.json()) as KeptLookups;
  const found = bundle.data.words[formOf(word, lang)];
  return {
    word,
    target: bundle.data.target,
    matched: found?.matched ?? null,
    lemmas: found?.lemmas ?? [],
    glossary: null,
    entries: found?.entries ?? [],
    offline: true,
  };
}

/** The longest meaning a card keeps (server/learning/words/words.dto.ts, MAX_MEANING). */
export const MAX_MEANING = 1000;

/**
 * An entry's definition as a card's meaning: its first whole lines (blank ones left out), as many as fit
 * in MAX_MEANING characters, so the whole definition when it fits. The server accepts a beginning of the
 * definition that ends at a line break (docs/lookup.md, "Saving a word"); a first line longer than that
 * alone is cut at MAX_MEANING, with no ellipsis.
 */
export function meaningOf(definition: string): string {
  const lines = definition
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  let meaning = '';
  for (const line of lines) {
    const longer = meaning ? `${meaning}\n${line}` : line;
    if (longer.length > MAX_MEANING) break;
    meaning = longer;
  }
  // By characters, not UTF-16 units: a cut never splits an emoji or a CJK extension character in two.
  return meaning || [...(lines[0] ?? '')].slice(0, MAX_MEANING).join('');
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
    let byDictionary = group.dictionaries.find((found) => found.dictionary.id === entry.dictionary.id);
    if (!byDictionary) {
      byDictionary = { dictionary: entry.dictionary, entries: [] };
      group.dictionaries.push(byDictionary);
    }
    byDictionary.entries.push(entry);
  }
  return groups;
}
