import { Injectable } from '@nestjs/common';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { PhrasesRepository } from '../../content/catalogue/repository/phrases.repository';
import { shortened } from '../../platform/common/cut-text';
import { countForms } from '../../platform/common/running-words';
import { Access } from '../../content/access/access.service';
import { primaryTag } from '../../platform/common/language-tags';
import { foldWord } from '../../content/dictionaries/fold';
import { splitGlossary } from '../../content/catalogue/glossary';
import { speaksOf } from '../../accounts/users/speaks';
import type { User } from '../../accounts/users/user.entity';
import { DictionaryEntries, type FoundEntry, type LiveDictionary } from './dictionary-entries';
import { matchGlossary } from './glossary-match';
import type {
  ChapterLookups,
  ChapterLookupsAnswer,
  LookupAnswer,
  LookupEntry,
  LookupStep,
} from './lookup.dto';

/** What a downloaded chapter's lookups keep (docs/lookup.md, "Offline"): a few entries a word, cut short. */
export const OFFLINE_ENTRIES_PER_WORD = 6;
export const OFFLINE_DEFINITION = 600;
/** The bundle's bound, in characters of JSON (about as many bytes for Latin scripts). */
export const OFFLINE_BUNDLE_CHARS = 1_500_000;

/** The definitions' language when nothing else decides it. */
export const DEFAULT_TARGET = 'en';

const samePrimary = (a: string, b: string) => primaryTag(a) === primaryTag(b);

/** The dictionaries into `target`'s language, those of the very tag first (the order is otherwise kept). */
function intoTarget(dictionaries: LiveDictionary[], target: string): LiveDictionary[] {
  const into = dictionaries.filter((d) => samePrimary(d.target, target));
  return [...into.filter((d) => d.target === target), ...into.filter((d) => d.target !== target)];
}

/** The first of the member's languages that a dictionary of the word's language goes into, else English. */
export function chooseTarget(speaks: string[], dictionaries: LiveDictionary[]): string {
  return speaks.find((tag) => dictionaries.some((d) => samePrimary(d.target, tag))) ?? DEFAULT_TARGET;
}

/** Lemmas found in more dictionaries first (those with no entry last), then alphabetically. */
export function orderLemmas(lemmas: string[], entries: FoundEntry[]): string[] {
  const dictionariesOf = (lemma: string) =>
    new Set(entries.filter((e) => e.headword === lemma).map((e) => e.dictionaryId)).size;
  const counts = new Map(lemmas.map((lemma) => [lemma, dictionariesOf(lemma)]));
  return [...lemmas].sort((a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A word's lookup (docs/lookup.md): the phrase's glossary, the exact form, its lemmas, then its case- and
 * accent-folded spelling; `matched` names the first step that found a meaning. Each step is one indexed
 * query, and the form and its lemmas share one.
 */
@Injectable()
export class LookupService {
  constructor(
    private readonly dictionaries: DictionaryEntries,
    private readonly access: Access,
    private readonly books: BooksRepository,
    private readonly phrases: PhrasesRepository,
  ) {}

  async lookup(
    query: { lang?: string; word: string; target?: string; phrase_id?: number },
    user: User | undefined,
  ): Promise<LookupAnswer> {
    const { word } = query;
    // The access rule first: a locked chapter's glossary never leaks, nor does the fact it has the word.
    const phrase = query.phrase_id
      ? await this.access.require(user, { phrase: query.phrase_id }, 'use')
      : null;
    // Left out (with a phrase): the phrase's book's language; a book without one looks in every dictionary.
    const lang = query.lang || (phrase ? ((await this.books.byId(phrase.book_id))?.language ?? null) : null);
    const fromLang = await this.dictionaries.fromLanguage(lang);
    const target = query.target ?? chooseTarget(user ? speaksOf(user) : [], fromLang);
    const found = await this.ofDictionaries(word, lang, intoTarget(fromLang, target));
    const glossary = phrase
      ? matchGlossary(splitGlossary(phrase.dictionary), word, lang ?? undefined, found.allLemmas)
      : null;
    return {
      data: {
        word,
        lang,
        target,
        matched: glossary ? 'glossary' : found.matched,
        lemmas: found.lemmas,
        glossary,
        entries: found.entries,
      },
    };
  }

  /**
   * The lookups a downloaded chapter takes with it (docs/lookup.md, "Offline"): each word of the chapter
   * that a dictionary has, as a lookup without a phrase answers it, bounded per word and in all. Only a
   * chapter the caller may read (the one access rule, server/content/access/).
   */
  async chapter(
    query: { book_code: string; chapter_no: number; target?: string },
    user: User | undefined,
  ): Promise<ChapterLookupsAnswer> {
    const { book, chapters, index } = await this.access.require(
      user,
      { chapter: { bookCode: query.book_code, chapterNo: String(query.chapter_no) } },
      'use',
    );
    const lang = book.language ?? null;
    const fromLang = await this.dictionaries.fromLanguage(lang);
    const target = query.target ?? chooseTarget(user ? speaksOf(user) : [], fromLang);
    const used = intoTarget(fromLang, target);
    const phrases = await this.phrases.ofChapter(chapters[index].id);
    const words: ChapterLookups['words'] = {};
    let size = 0;
    let complete = true;
    for (const [form, { spellings }] of countForms(
      phrases.map((p) => p.phrase),
      lang ?? '',
    )) {
      if (!used.length) break;
      // The word as the chapter first writes it ("Insel"): dictionaries keep a language's own case.
      const [written] = spellings;
      const found = await this.ofDictionaries(written, lang, used);
      if (!found.entries.length) continue;
      const item = {
        // Entries were found: some step matched.
        matched: found.matched!,
        lemmas: found.lemmas,
        entries: found.entries.slice(0, OFFLINE_ENTRIES_PER_WORD).map((entry) => ({
          ...entry,
          definition: shortened(entry.definition, OFFLINE_DEFINITION),
        })),
      };
      size += form.length + JSON.stringify(item).length;
      if (size > OFFLINE_BUNDLE_CHARS) {
        complete = false;
        break;
      }
      words[form] = item;
    }
    return { data: { lang, target, complete, words } };
  }

  /**
   * The dictionaries' part of a lookup: the exact form (and its lower case), its lemmas, then its folded
   * spelling; the entries in that order, each step's dictionaries in the order given.
   */
  private async ofDictionaries(
    word: string,
    lang: string | null,
    used: LiveDictionary[],
  ): Promise<{ allLemmas: string[]; lemmas: string[]; entries: LookupEntry[]; matched: LookupStep | null }> {
    const forms = [...new Set([word, lang ? word.toLocaleLowerCase(lang) : word.toLowerCase()])];
    const found = lang ? await this.dictionaries.lemmasOf(lang, forms) : [];
    const ids = used.map((d) => d.id);
    const lemmas = found.filter((lemma) => !forms.includes(lemma));

    // The form's entries and its lemmas' in two queries, each with its own bound on rows: a lemma with
    // many entries never crowds out the form's own.
    const [ofForm, ofLemmas] = await Promise.all([
      this.dictionaries.byHeadwords(ids, forms),
      this.dictionaries.byHeadwords(ids, lemmas),
    ]);
    const folded =
      ofForm.length || ofLemmas.length ? [] : await this.dictionaries.byFolded(ids, foldWord(word));
    const ordered = orderLemmas(lemmas, ofLemmas);

    const rank = new Map(used.map((d, i) => [d.id, i]));
    const byDictionary = (a: FoundEntry, b: FoundEntry) =>
      rank.get(a.dictionaryId)! - rank.get(b.dictionaryId)! || a.id - b.id;
    const named = new Map(used.map((d) => [d.id, d]));
    const shown =
      (lemma: string | null) =>
      (e: FoundEntry): LookupEntry => {
        const d = named.get(e.dictionaryId)!;
        return {
          headword: e.headword,
          definition: e.definition,
          pos: e.pos,
          lemma,
          dictionary: { id: d.id, name: d.name, attribution: d.attribution },
        };
      };
    const entries = [
      ...ofForm.sort(byDictionary).map(shown(null)),
      ...ordered.flatMap((lemma) =>
        ofLemmas
          .filter((e) => e.headword === lemma)
          .sort(byDictionary)
          .map(shown(lemma)),
      ),
      ...folded.sort(byDictionary).map(shown(null)),
    ];
    const matched: LookupStep | null = ofForm.length
      ? 'form'
      : ofLemmas.length
        ? 'lemma'
        : folded.length
          ? 'folded'
          : null;
    return { allLemmas: found, lemmas: ordered, entries, matched };
  }
}
