import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import { Chapter } from '../entities/chapter.entity';
import { sql } from '../../../platform/database/sql';
import { Phrase } from '../entities/phrase.entity';
import { firstChapterNoSql } from '../free-chapters';
import { lockChapter } from './chapter-lock';
import { measureChapter } from './chapter-length';
import { countChapterWords } from './chapter-words';
import { setPhraseLengths } from './clip-lengths';
import { PhraseTranslationsRepository, type Translations } from './phrase-translations.repository';

/** A phrase as its writer gives it; the repository gives it its chapter and position. */
export type NewPhrase = Pick<Phrase, 'phrase' | 'dictionary' | 'audioPath' | 'audioMs'>;
/** A phrase to append, with its translations (canonical tags, texts not empty) when it has some. */
export type PhraseToAppend = NewPhrase & { translations?: Translations };
/** A phrase as appended: its fields, id and place, without the timestamps the database filled in. */
export type AppendedPhrase = NewPhrase & Pick<Phrase, 'id' | 'chapterId' | 'position'>;

/** Where a phrase sits: its chapter, book, and the number of its book's first chapter (access rules). */
export interface PhrasePlace {
  id: number;
  dictionary: string;
  chapter_id: number;
  book_id: number;
  chapter_no: number;
  first_chapter_no: number;
  /** The clip's length, when known. */
  audio_ms: number | null;
}

/** Phrases inserted per statement: well under SQLite's and PostgreSQL's limits on bound values. */
const PHRASES_PER_INSERT = 100;

/**
 * The only writer of phrases and their positions, and where other modules read them. Positions run from 1
 * with no gap; every method that changes them locks the chapter first (chapter-lock.ts).
 */
@Injectable()
export class PhrasesRepository {
  constructor(
    private readonly db: DataSource,
    private readonly translations: PhraseTranslationsRepository,
  ) {}

  byId(id: number, tx: EntityManager = this.db.manager): Promise<Phrase | null> {
    return tx.findOneBy(Phrase, { id });
  }

  /** A chapter's phrases in reading order. */
  ofChapter(chapterId: number): Promise<Phrase[]> {
    return this.db.manager.find(Phrase, { where: { chapterId }, order: { position: 'ASC', id: 'ASC' } });
  }

  /** Several chapters' phrases in one query, each chapter's in reading order. */
  async ofChapters(chapterIds: number[]): Promise<Phrase[]> {
    if (!chapterIds.length) return [];
    return this.db.manager.find(Phrase, {
      where: { chapterId: In(chapterIds) },
      order: { position: 'ASC', id: 'ASC' },
    });
  }

  /** The phrase at `position` (from 1) in reading order, or null past the end. */
  async atPosition(chapterId: number, position: number): Promise<Phrase | null> {
    const [phrase] = await this.db.manager.find(Phrase, {
      where: { chapterId },
      order: { position: 'ASC', id: 'ASC' },
      skip: position - 1,
      take: 1,
    });
    return phrase ?? null;
  }

  countOfChapter(chapterId: number): Promise<number> {
    return this.db.manager.countBy(Phrase, { chapterId });
  }

  /** The phrases of `ids` that exist, with where each sits, in one query; unknown ids are left out. */
  async places(ids: number[]): Promise<PhrasePlace[]> {
    if (!ids.length) return [];
    const rows = await this.db.manager
      .createQueryBuilder(Phrase, 'p')
      .innerJoin(Chapter, 'c', 'c.id = p.chapterId')
      .select('p.id', 'id')
      .addSelect('p.dictionary', 'dictionary')
      .addSelect('c.id', 'chapter_id')
      .addSelect('c.bookId', 'book_id')
      .addSelect('c.chapterNo', 'chapter_no')
      .addSelect(firstChapterNoSql('c'), 'first_chapter_no')
      .addSelect('p.audioMs', 'audio_ms')
      .where('p.id IN (:...ids)', { ids })
      .getRawMany<Record<keyof PhrasePlace, number | string | null>>();
    return rows.map((row) => ({
      id: Number(row.id),
      dictionary: String(row.dictionary),
      chapter_id: Number(row.chapter_id),
      book_id: Number(row.book_id),
      chapter_no: Number(row.chapter_no),
      first_chapter_no: Number(row.first_chapter_no),
      audio_ms: row.audio_ms === null ? null : Number(row.audio_ms),
    }));
  }

  /**
   * The phrases at these positions of these chapters, newest first (so that a caller keeping the last one
   * per position keeps the oldest, should two ever share a position).
   */
  atPositions(
    chapterIds: number[],
    positions: number[],
  ): Promise<Array<Pick<Phrase, 'chapterId' | 'position' | 'phrase'>>> {
    if (!chapterIds.length || !positions.length) return Promise.resolve([]);
    return this.db.manager.find(Phrase, {
      select: { chapterId: true, position: true, phrase: true },
      where: { chapterId: In(chapterIds), position: In(positions) },
      order: { id: 'DESC' },
    });
  }

  /**
   * Appends phrases at the end of a chapter, in the order given: the one place positions are handed out.
   * Within `tx` when given (an import or a new book adds its phrases with its other rows), else in a
   * transaction of its own. The chapter's lock keeps two appends from reading the same last position.
   * Their translations are written in the same transaction.
   */
  async append(chapterId: number, phrases: PhraseToAppend[], tx?: EntityManager): Promise<AppendedPhrase[]> {
    if (!tx) return this.db.transaction((own) => this.append(chapterId, phrases, own));
    await lockChapter(tx, chapterId);
    const [{ last }] = await sql<Array<{ last: number | string }>>(
      tx,
      `SELECT COALESCE(MAX(position), 0) AS last FROM phrases WHERE chapter_id = ?`,
      [chapterId],
    );
    const rows = phrases.map(({ phrase, dictionary, audioPath, audioMs }, i) => ({
      phrase,
      dictionary,
      audioPath,
      audioMs,
      chapterId,
      position: Number(last) + i + 1,
    }));
    const appended: AppendedPhrase[] = [];
    for (let at = 0; at < rows.length; at += PHRASES_PER_INSERT) {
      const batch = rows.slice(at, at + PHRASES_PER_INSERT);
      const ids = await this.insertBatch(tx, batch);
      appended.push(...batch.map((row, i) => ({ ...row, id: ids[i] })));
    }
    const translated = new Map<number, Translations>();
    phrases.forEach(({ translations }, i) => {
      if (translations && Object.keys(translations).length) translated.set(appended[i].id, translations);
    });
    if (translated.size) await this.translations.replace(translated, tx);
    await measureChapter(tx, chapterId);
    await countChapterWords(tx, chapterId);
    return appended;
  }

  /** One INSERT of up to PHRASES_PER_INSERT rows; a method of its own so that a test can fail a commit halfway. */
  protected async insertBatch(tx: EntityManager, rows: Array<Omit<AppendedPhrase, 'id'>>): Promise<number[]> {
    const { identifiers } = await tx.insert(Phrase, rows);
    return identifiers.map((identifier) => Number(identifier.id));
  }

  /**
   * Changes a phrase's text or clip, and replaces its translations when `translations` is given; answers
   * the row as it was (read in the same transaction), or null. A new clip changes its chapter's length,
   * and new text its word counts, made again under the chapter's lock.
   */
  update(id: number, changes: Partial<NewPhrase>, translations?: Translations): Promise<Phrase | null> {
    return this.db.transaction(async (tx) => {
      const found = await tx.findOneBy(Phrase, { id });
      if (!found) return null;
      const measure = changes.audioMs !== undefined;
      const newText = changes.phrase !== undefined;
      if (measure || newText) await lockChapter(tx, found.chapterId);
      // Read again under the lock: a delete or another edit may have ended meanwhile.
      const current = measure || newText ? await tx.findOneBy(Phrase, { id }) : found;
      if (!current) return null;
      const recount = newText && changes.phrase !== current.phrase;
      // A delete may have committed since the read (on PostgreSQL the read locks nothing): nothing is
      // left to change, nor to give translations to (their foreign key would fail).
      const { affected } = await tx.update(Phrase, { id }, changes);
      if (!affected) return null;
      if (translations) await this.translations.replace(new Map([[id, translations]]), tx);
      if (measure) await measureChapter(tx, current.chapterId);
      if (recount) await countChapterWords(tx, current.chapterId);
      return current;
    });
  }

  /**
   * Puts clips' decoded lengths (key → ms) on the phrases using them where they differ, measuring their
   * chapters again (clip-lengths.ts); answers whether a row changed.
   */
  setClipLengths(lengths: ReadonlyMap<string, number>): Promise<boolean> {
    return setPhraseLengths(this.db, lengths);
  }

  /** Deletes a phrase and closes the gap; answers its clip as the delete saw it (null: already gone). */
  remove(phrase: Pick<Phrase, 'id' | 'chapterId'>): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      await lockChapter(tx, phrase.chapterId);
      // Re-read under the lock: a reorder may have moved it, an edit replaced its clip (on PostgreSQL the
      // row is locked too, so an edit in flight ends first and its clip is the one answered).
      if (tx.connection.options.type === 'postgres')
        await tx.query('SELECT id FROM phrases WHERE id = $1 FOR UPDATE', [phrase.id]);
      const current = await tx.findOneBy(Phrase, { id: phrase.id });
      if (!current) return null;
      await tx.delete(Phrase, { id: phrase.id });
      await sql(tx, `UPDATE phrases SET position = position - 1 WHERE chapter_id = ? AND position > ?`, [
        current.chapterId,
        current.position,
      ]);
      await measureChapter(tx, current.chapterId);
      await countChapterWords(tx, current.chapterId);
      return current.audioPath;
    });
  }

  /** Deletes every phrase of a chapter within `tx` (an import replacing them); answers their clips. */
  async removeAllOf(chapterId: number, tx: EntityManager): Promise<string[]> {
    await lockChapter(tx, chapterId);
    const old = await tx.find(Phrase, { select: { id: true, audioPath: true }, where: { chapterId } });
    await tx.delete(Phrase, { chapterId });
    await measureChapter(tx, chapterId);
    await countChapterWords(tx, chapterId);
    return old.map((phrase) => phrase.audioPath);
  }

  /**
   * Sets a chapter's reading order to `ids`. Answers false, changing nothing, unless `ids` lists each of
   * the chapter's phrases exactly once (checked under the lock, against the phrases as they are then).
   */
  reorder(chapterId: number, ids: number[]): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await lockChapter(tx, chapterId);
      const current = await sql<Array<{ id: number }>>(tx, `SELECT id FROM phrases WHERE chapter_id = ?`, [
        chapterId,
      ]);
      const expected = new Set(current.map((row) => Number(row.id)));
      if (
        ids.length !== expected.size ||
        new Set(ids).size !== ids.length ||
        !ids.every((id) => expected.has(id))
      )
        return false;
      for (const [index, id] of ids.entries()) {
        await sql(tx, `UPDATE phrases SET position = ? WHERE id = ?`, [index + 1, id]);
      }
      return true;
    });
  }
}
