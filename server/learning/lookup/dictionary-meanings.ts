import { Injectable } from '@nestjs/common';
import { foldWord } from '../../content/dictionaries/fold';
import { DictionaryEntries, type FoundEntry, type LiveDictionary } from './dictionary-entries';

/** Blank space as one space, none at the ends: how a client may have laid out a definition does not matter. */
const spaced = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Each line with its blank space as one space, blank lines left out: a definition's lines as compared. */
const lines = (text: string) => text.split(/\r?\n/).map(spaced).filter(Boolean).join('\n');

/**
 * Whether `meaning` is `definition` as the reader's sheet saves it: the whole of it (blank space aside),
 * or its first lines (a long entry's first senses: docs/practice.md, "Word lookups"), or, for a definition
 * longer than a card's meaning may be (`max`), its beginning, with or without an ellipsis where the client
 * cut it.
 */
export function isDefinition(meaning: string, definition: string, max: number): boolean {
  const [said, defined] = [lines(meaning), lines(definition)];
  if (!said) return false;
  if (said === defined || spaced(said) === spaced(defined)) return true;
  if (defined.startsWith(said) && defined[said.length] === '\n') return true;
  const start = said.replace(/(?:…|\.\.\.)$/, '').trimEnd();
  return defined.length > max && start.length > 0 && defined.startsWith(start);
}

export interface DictionaryMeaning {
  /** The term as saved, in the book's language (null when the book has none: any dictionary then). */
  lang: string | null;
  term: string;
  meaning: string;
  /** The dictionary the lookup named, when the client says. */
  dictionaryId?: number;
  /** The longest meaning a card keeps. */
  max: number;
}

/**
 * Which live dictionary a saved meaning comes from: one with an entry for the term, one of its lemmas or
 * its folded spelling (the lookup's steps) whose definition the meaning is. Null when none: a client
 * cannot make up a "dictionary" meaning (docs/lookup.md, "Saving a word").
 */
@Injectable()
export class DictionaryMeanings {
  constructor(private readonly dictionaries: DictionaryEntries) {}

  async sourceOf(asked: DictionaryMeaning): Promise<LiveDictionary | null> {
    const live = await this.dictionaries.fromLanguage(asked.lang);
    const used = asked.dictionaryId ? live.filter((d) => d.id === asked.dictionaryId) : live;
    if (!used.length) return null;
    const ids = used.map((d) => d.id);
    // Composed (NFC), as the dictionaries and word forms store their words.
    const term = asked.term.normalize('NFC');
    const lower = asked.lang ? term.toLocaleLowerCase(asked.lang) : term.toLowerCase();
    const forms = [...new Set([term, lower])];
    const lemmas = asked.lang ? await this.dictionaries.lemmasOf(asked.lang, forms) : [];
    const matches = (entry: FoundEntry) => isDefinition(asked.meaning, entry.definition, asked.max);
    // Step by step, as the lookup reads them (each read is bounded): the sheet saves an entry's own
    // headword, so its entry is among the first step's rows however many the lemmas have.
    const hit =
      (await this.dictionaries.byHeadwords(ids, forms)).find(matches) ??
      (
        await this.dictionaries.byHeadwords(
          ids,
          lemmas.filter((l) => !forms.includes(l)),
        )
      ).find(matches) ??
      (await this.dictionaries.byFolded(ids, foldWord(term))).find(matches);
    return hit ? used.find((d) => d.id === hit.dictionaryId)! : null;
  }
}
