import { isUniqueViolation } from '../../platform/database/db-errors';
import { firstChapterNoSql } from '../../content/catalogue/free-chapters';
import { dateFromDb } from '../../platform/database/db-dates';
import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { toCsv } from './csv';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { joinCatalogue } from '../../content/catalogue/repository/catalogue-joins';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { PhraseTranslationsRepository } from '../../content/catalogue/repository/phrase-translations.repository';
import { ValidationFailed } from '../../platform/common/api-error';
import { chooseTranslation } from '../../platform/common/translation-choice';
import { Clock } from '../../platform/common/clock';
import { SignedLinks } from '../../platform/common/signed-links';
import { clipUrl } from '../../platform/media/media-urls';
import { DictionaryMeanings } from '../lookup/dictionary-meanings';
import { MediaIndex } from '../../content/access/media-index';
import { splitGlossary } from '../../content/catalogue/glossary';
import { Access } from '../../content/access/access.service';
import { speaksOf } from '../../accounts/users/speaks';
import type { User } from '../../accounts/users/user.entity';
import { PhraseCards } from './phrase-cards';
import { SavedWord, type CardKind, type MeaningSource } from './saved-word.entity';
import { newCard } from './scheduler';
import {
  MAX_MEANING,
  type SaveWordDto,
  WordAnswer,
  type WordBooksAnswer,
  type WordListAnswer,
  type WordResponse,
  type WordsQuery,
} from './words.dto';

export interface WordRow {
  id: number;
  phrase_id: number | string;
  kind: CardKind;
  term: string;
  meaning: string;
  source: MeaningSource;
  source_name: string | null;
  phrase: string;
  dictionary: string;
  audio_path: string;
  book_code: string;
  book_title: string;
  book_language: string | null;
  chapter_no: number | string;
  first_chapter_no: number | string;
  position: number | string;
  due: Date | string;
  state: number | string;
  reps: number | string;
  lapses: number | string;
  created_at: Date | string;
}

/** What a new word card keeps of its meaning. */
type NewMeaning = Pick<SavedWord, 'term' | 'meaning' | 'source' | 'sourceName'>;

const iso = (value: Date | string) => dateFromDb(value).toISOString();

/** When a clip's link stops working, as a spreadsheet shows it ("2026-03-12 18:00 UTC"), or "never". */
function linkExpiry(url: string): string {
  const exp = new URL(url, 'http://localhost').searchParams.get('exp');
  if (!exp) return 'never';
  return `${new Date(Number(exp) * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A member's saved words: kept from a phrase's glossary, listed with the phrase and its clip. */
@Injectable()
export class WordsService {
  constructor(
    @InjectRepository(SavedWord) private readonly words: Repository<SavedWord>,
    private readonly translations: PhraseTranslationsRepository,
    private readonly bookRows: BooksRepository,
    private readonly meanings: DictionaryMeanings,
    private readonly phraseCards: PhraseCards,
    private readonly access: Access,
    private readonly links: SignedLinks,
    private readonly mediaIndex: MediaIndex,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Saves the glossary entry `term` of a phrase the member may read, or a dictionary's meaning of a word of
   * it (source "dictionary", checked: DictionaryMeanings), or with kind "phrase" the whole phrase as a
   * card; saving the same term of the same phrase again answers the card it has, with the new meaning
   * when it is another dictionary's (docs/lookup.md, "Saving a word").
   */
  async save(user: User, dto: SaveWordDto): Promise<WordAnswer> {
    const found = await this.access.require(user, { phrase: dto.phrase_id }, 'use');
    if (dto.kind === 'phrase')
      return { data: await this.one(user, await this.phraseCards.ensure(user.id, found.id)) };
    const card =
      dto.source === 'dictionary'
        ? await this.fromDictionary(found.book_id, dto)
        : this.fromGlossary(found.dictionary, dto);

    const existing = await this.words.findOneBy({ userId: user.id, phraseId: found.id, term: card.term });
    if (existing) {
      // Another dictionary meaning of a word already saved from this phrase: the learner's choice
      // replaces the card's meaning, its reviews kept (one card per word of a phrase).
      if (
        card.source === 'dictionary' &&
        (existing.meaning !== card.meaning || existing.source !== card.source)
      )
        await this.words.update(
          { id: existing.id },
          { meaning: card.meaning, source: card.source, sourceName: card.sourceName },
        );
      return { data: await this.one(user, existing.id) };
    }
    const now = this.clock.now();
    try {
      const { identifiers } = await this.words.insert({
        userId: user.id,
        phraseId: found.id,
        ...card,
        createdAt: now,
        ...newCard(now),
      });
      return { data: await this.one(user, Number(identifiers[0].id)) };
    } catch (error) {
      // The same word saved twice at the same moment: the unique index keeps one, and both get it.
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.words.findOneBy({ userId: user.id, phraseId: found.id, term: card.term });
      if (!winner) throw error;
      return { data: await this.one(user, winner.id) };
    }
  }

  private fromGlossary(glossary: string, dto: SaveWordDto): NewMeaning {
    const entry = splitGlossary(glossary).find((e) => e.term === dto.term);
    if (!entry) throw ValidationFailed.field('term', 'That term is not in the glossary of this phrase.');
    return {
      term: entry.term,
      meaning: entry.meaning.slice(0, MAX_MEANING),
      source: 'glossary',
      sourceName: null,
    };
  }

  /** A dictionary's meaning, when a live dictionary of the book's language has it for the term. */
  private async fromDictionary(bookId: number, dto: SaveWordDto): Promise<NewMeaning> {
    const book = await this.bookRows.byId(bookId);
    const dictionary = await this.meanings.sourceOf({
      lang: book?.language ?? null,
      term: dto.term,
      meaning: dto.meaning!,
      dictionaryId: dto.dictionary_id,
      max: MAX_MEANING,
    });
    if (!dictionary)
      throw ValidationFailed.field('meaning', 'That meaning is not a dictionary definition of this term.');
    return {
      term: dto.term,
      meaning: dto.meaning!,
      source: 'dictionary',
      sourceName: dictionary.name.slice(0, 200),
    };
  }

  async list(user: User, query: WordsQuery): Promise<WordListAnswer> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 50;
    const base = this.query(user);
    if (query.book_code) base.andWhere('b.bookCode = :bookCode', { bookCode: query.book_code });
    if (query.chapter_no) base.andWhere('c.chapterNo = :chapterNo', { chapterNo: query.chapter_no });
    if (query.kind) base.andWhere('w.kind = :kind', { kind: query.kind });
    if (query.q?.trim()) {
      // LOWER() on both sides: SQLite's LIKE ignores ASCII case and PostgreSQL's does not.
      const pattern = `%${query.q
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      // A phrase card has no term or meaning: its phrase is what a search finds it by.
      base.andWhere(
        "(LOWER(w.term) LIKE :pattern ESCAPE '\\' OR LOWER(w.meaning) LIKE :pattern ESCAPE '\\'" +
          " OR (w.kind = 'phrase' AND LOWER(p.phrase) LIKE :pattern ESCAPE '\\'))",
        { pattern },
      );
    }
    if (query.due === '1') base.andWhere('w.due <= :now', { now: this.clock.now() });
    const total = await base.clone().getCount();
    const rows = await base
      .orderBy(query.due === '1' ? 'w.due' : 'w.createdAt', query.due === '1' ? 'ASC' : 'DESC')
      .addOrderBy('w.id', 'DESC')
      .offset((page - 1) * perPage)
      .limit(perPage)
      .getRawMany<WordRow>();
    return { data: await this.respond(user, rows), meta: { total, page, per_page: perPage } };
  }

  /**
   * Every saved word as a CSV a spreadsheet opens: term, meaning, phrase, book, chapter, the clip's
   * absolute URL (from PUBLIC_URL) and until when that URL works. A free chapter's clip has a plain link
   * that does not expire ("never"); a locked chapter's is signed and works for CLIP_URL_HOURS at most,
   * its expiry written out in UTC. A clip the member may no longer hear is left empty. Phrase cards are
   * rows too (kind "phrase", empty term and meaning), with the phrase's translation in the member's language.
   * A word's source says where its meaning came from (glossary or dictionary), and `dictionary` which one.
   */
  async exportCsv(user: User, languages?: string[]): Promise<string> {
    const rows = await this.query(user)
      .orderBy('b.title', 'ASC')
      .addOrderBy('c.chapterNo', 'ASC')
      .addOrderBy('p.position', 'ASC')
      .getRawMany<WordRow>();
    const words = await this.respond(user, rows, languages);
    return toCsv([
      [
        'term',
        'meaning',
        'phrase',
        'book',
        'chapter',
        'audio URL',
        'audio URL expires',
        'kind',
        'translation',
        'source',
        'dictionary',
      ],
      ...words.map((w) => [
        w.term,
        w.meaning,
        w.phrase,
        w.book_title,
        w.chapter_no,
        w.audio ? this.config.publicUrl + w.audio : null,
        w.audio ? linkExpiry(w.audio) : null,
        w.kind,
        w.translation?.text ?? null,
        w.source,
        w.source_name,
      ]),
    ]);
  }

  /** The books the member has saved words from, for the words page's filter (`words` counts every card). */
  async books(user: User): Promise<WordBooksAnswer> {
    const rows = await this.joined(user)
      .select('b.bookCode', 'book_code')
      .addSelect('b.title', 'book_title')
      .addSelect('COUNT(*)', 'words')
      .groupBy('b.bookCode')
      .addGroupBy('b.title')
      .orderBy('b.title', 'ASC')
      .getRawMany<{ book_code: string; book_title: string; words: number | string }>();
    return { data: rows.map((row) => ({ ...row, words: Number(row.words) })) };
  }

  async one(user: User, id: number): Promise<WordResponse> {
    return (await this.respond(user, [await this.row(user, id)]))[0];
  }

  async row(user: User, id: number): Promise<WordRow> {
    const row = await this.query(user).andWhere('w.id = :id', { id }).getRawOne<WordRow>();
    if (!row) throw new NotFoundException('Word not found.');
    return row;
  }

  /** A member's words with what the answers show of their phrase, chapter and book: one query. */
  query(user: User) {
    return this.joined(user)
      .select('w.id', 'id')
      .addSelect('w.phraseId', 'phrase_id')
      .addSelect('w.kind', 'kind')
      .addSelect('w.term', 'term')
      .addSelect('w.meaning', 'meaning')
      .addSelect('w.source', 'source')
      .addSelect('w.sourceName', 'source_name')
      .addSelect('p.phrase', 'phrase')
      .addSelect('p.dictionary', 'dictionary')
      .addSelect('p.audioPath', 'audio_path')
      .addSelect('b.bookCode', 'book_code')
      .addSelect('b.title', 'book_title')
      .addSelect('b.language', 'book_language')
      .addSelect('c.chapterNo', 'chapter_no')
      .addSelect(firstChapterNoSql('c'), 'first_chapter_no')
      .addSelect('p.position', 'position')
      .addSelect('w.due', 'due')
      .addSelect('w.state', 'state')
      .addSelect('w.reps', 'reps')
      .addSelect('w.lapses', 'lapses')
      .addSelect('w.createdAt', 'created_at');
  }

  /** A member's words joined to their phrase (p), chapter (c) and book (b). */
  private joined(user: User) {
    return joinCatalogue(this.words.createQueryBuilder('w'), {
      phrase: 'w.phraseId',
      chapter: 'p.chapterId',
      book: 'c.bookId',
    }).where('w.userId = :userId', { userId: user.id });
  }

  /**
   * Clips follow the reader's rules: signed when their chapter is locked (or when the media gate cannot
   * vouch for a free one right now), and absent (null) when the member may no longer read that chapter: a
   * lapsed plan keeps the words and their text. Each card carries its phrase's glossary and all its
   * translations (the browser picks with the learner's languages, server/platform/common/translation-choice.ts),
   * plus the one the same rule picks for `languages` (the member's "I speak" unless the client names the
   * learner's languages, as the exports do): one query for all the rows.
   */
  async respond(user: User, rows: WordRow[], languages?: string[]): Promise<WordResponse[]> {
    const preferred = languages?.length ? languages : speaksOf(user);
    const [readable, translations] = await Promise.all([
      this.access.readable(user, rows),
      this.translations.ofPhrases(rows.map((row) => Number(row.phrase_id))),
    ]);
    return rows.map((row) => {
      const free = this.access.isFree(row);
      return {
        id: Number(row.id),
        phrase_id: Number(row.phrase_id),
        kind: row.kind,
        term: row.term,
        meaning: row.meaning,
        source: row.kind === 'phrase' ? null : row.source,
        source_name: row.kind === 'phrase' || row.source !== 'dictionary' ? null : row.source_name,
        phrase: row.phrase,
        glossary: splitGlossary(row.dictionary),
        translations: translations.get(Number(row.phrase_id)) ?? {},
        translation: chooseTranslation(translations.get(Number(row.phrase_id)), preferred, row.book_language),
        audio: readable(row)
          ? clipUrl(this.links, row.audio_path, !free || !this.mediaIndex.isKnownFree(row.audio_path))
          : null,
        book_code: row.book_code,
        book_title: row.book_title,
        language: row.book_language,
        chapter_no: Number(row.chapter_no),
        position: Number(row.position),
        due_at: iso(row.due),
        state: Number(row.state),
        reps: Number(row.reps),
        lapses: Number(row.lapses),
        created_at: iso(row.created_at),
      };
    });
  }
}
