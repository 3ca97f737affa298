import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { BooksRepository } from '../catalogue/repository/books.repository';
import { primaryTag } from '../common/language-tags';
import { foldWord } from '../dictionaries/fold';
import { splitGlossary } from '../reading/glossary';
import { speaksOf } from '../users/speaks';
import type { User } from '../users/user.entity';
import { ReadablePhrase } from '../words/readable-phrase';
import { DictionaryEntries, type FoundEntry, type LiveDictionary } from './dictionary-entries';
import { matchGlossary } from './glossary-match';
import type { LookupAnswer, LookupEntry, LookupStep } from './lookup.dto';

/** The definitions' language when nothing else decides it. */
export const DEFAULT_TARGET = 'en';

/**
 * How long a visitor's answer (no token, no phrase) may be kept by browsers and shared caches: a replaced
 * dictionary shows within this time. `Vary: Authorization` keeps it from a member, whose answer differs.
 */
export const PUBLIC_LOOKUP = 'public, max-age=300';
export const PRIVATE_LOOKUP = 'private, no-store';

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
    private readonly readable: ReadablePhrase,
    private readonly books: BooksRepository,
  ) {}

  async lookup(
    query: { lang?: string; word: string; target?: string; phrase_id?: number },
    user: User | undefined,
    res: Response,
  ): Promise<LookupAnswer> {
    const { word } = query;
    // The access rule first: a locked chapter's glossary never leaks, nor does the fact it has the word.
    const phrase = query.phrase_id ? await this.readable.of(user, query.phrase_id) : null;
    // Left out (with a phrase): the phrase's book's language; a book without one looks in every dictionary.
    const lang = query.lang || (phrase ? ((await this.books.byId(phrase.book_id))?.language ?? null) : null);
    const forms = [...new Set([word, lang ? word.toLocaleLowerCase(lang) : word.toLowerCase()])];
    const [fromLang, found] = await Promise.all([
      this.dictionaries.fromLanguage(lang),
      lang ? this.dictionaries.lemmasOf(lang, forms) : Promise.resolve([]),
    ]);
    const target = query.target ?? chooseTarget(user ? speaksOf(user) : [], fromLang);
    const used = intoTarget(fromLang, target);
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
    const glossary = phrase
      ? matchGlossary(splitGlossary(phrase.dictionary), word, lang ?? undefined, found)
      : null;

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
    const matched: LookupStep | null = glossary
      ? 'glossary'
      : ofForm.length
        ? 'form'
        : ofLemmas.length
          ? 'lemma'
          : folded.length
            ? 'folded'
            : null;
    // Who asks changes the answer (a member's languages, a phrase's access): then no cache may keep it.
    res.setHeader('Cache-Control', user || phrase ? PRIVATE_LOOKUP : PUBLIC_LOOKUP);
    return { data: { word, lang, target, matched, lemmas: ordered, glossary, entries } };
  }
}
