import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Book } from '../entities/book.entity';
import { Chapter } from '../entities/chapter.entity';
import { sql } from '../../../platform/database/sql';
import { Phrase } from '../entities/phrase.entity';
import { lockChapter } from './chapter-lock';
import { countChapterWords } from './chapter-words';

export type NewChapter = Pick<Chapter, 'bookId' | 'title' | 'chapterNo'>;
export type ChapterWithBook = Chapter & { book: Book };

/** A chapter as lists show it: with how many phrases it has and their known audio time. */
export interface ChapterSummary {
  id: number;
  book_id: number;
  title: string;
  chapter_no: number;
  phrase_count: number;
  duration_ms: number;
}

/**
 * The only writer of chapters, and where other modules read them. Numbers are unique per book (a unique
 * index): a clash comes back as the driver's error for the caller to answer.
 */
@Injectable()
export class ChaptersRepository {
  constructor(private readonly db: DataSource) {}

  byId(id: number): Promise<Chapter | null> {
    return this.db.manager.findOneBy(Chapter, { id });
  }

  exists(id: number): Promise<boolean> {
    return this.db.manager.existsBy(Chapter, { id });
  }

  /** The chapter and its book, in one query. */
  withBook(id: number, tx: EntityManager = this.db.manager): Promise<ChapterWithBook | null> {
    return tx.findOne(Chapter, {
      where: { id },
      relations: { book: true },
    }) as Promise<ChapterWithBook | null>;
  }

  /**
   * Within `tx`, locks the chapter for renumbering its phrases (until `tx` ends), then reads it with its
   * book: locked first, so a chapter deleted meanwhile is seen as gone rather than half there.
   */
  async lockWithBook(id: number, tx: EntityManager): Promise<ChapterWithBook | null> {
    await lockChapter(tx, id);
    return this.withBook(id, tx);
  }

  /** A book's chapters in order of their numbers. */
  ofBook(bookId: number): Promise<Chapter[]> {
    return this.db.manager.find(Chapter, { where: { bookId }, order: { chapterNo: 'ASC' } });
  }

  /** A book's chapters in order, with their phrase counts and audio time, in one query. */
  async summariesOfBook(bookId: number): Promise<ChapterSummary[]> {
    const rows = await sql<Array<Record<keyof ChapterSummary, number | string>>>(
      this.db,
      `SELECT c.id, c.book_id, c.title, c.chapter_no, COUNT(p.id) AS phrase_count,
              COALESCE(SUM(p.audio_ms), 0) AS duration_ms
         FROM chapters c LEFT JOIN phrases p ON p.chapter_id = c.id
        WHERE c.book_id = ? GROUP BY c.id ORDER BY c.chapter_no`,
      [bookId],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      book_id: Number(row.book_id),
      title: String(row.title),
      chapter_no: Number(row.chapter_no),
      phrase_count: Number(row.phrase_count),
      duration_ms: Number(row.duration_ms),
    }));
  }

  /** A book's chapters in order, each with the position of its last phrase (null when it has none). */
  async withLastPosition(
    bookId: number,
  ): Promise<Array<{ id: number; chapter_no: number; title: string; last_position: number | null }>> {
    const rows = await this.db.manager
      .createQueryBuilder(Chapter, 'c')
      .select('c.id', 'id')
      .addSelect('c.chapterNo', 'chapter_no')
      .addSelect('c.title', 'title')
      .addSelect(
        (sub) => sub.select('MAX(p.position)').from(Phrase, 'p').where('p.chapterId = c.id'),
        'last_position',
      )
      .where('c.bookId = :bookId', { bookId })
      .orderBy('c.chapterNo', 'ASC')
      .getRawMany<{
        id: number | string;
        chapter_no: number | string;
        title: string;
        last_position: unknown;
      }>();
    return rows.map((row) => ({
      id: Number(row.id),
      chapter_no: Number(row.chapter_no),
      title: row.title,
      last_position: row.last_position === null ? null : Number(row.last_position),
    }));
  }

  /** The code of the chapter's book, for telling the caches which book changed; null when gone. */
  async bookCodeOf(chapterId: number): Promise<string | null> {
    const rows = await sql<Array<{ code: string }>>(
      this.db,
      `SELECT b.book_code AS code FROM books b JOIN chapters c ON c.book_id = b.id WHERE c.id = ?`,
      [chapterId],
    );
    return rows[0]?.code ?? null;
  }

  create(chapter: NewChapter, tx: EntityManager = this.db.manager): Promise<Chapter> {
    return tx.save(Chapter, tx.create(Chapter, chapter));
  }

  /**
   * An update, never a save: a chapter deleted meanwhile stays deleted. Answers how many rows changed. A
   * chapter moved to another book takes its word counts there, counted in that book's language, in the
   * same transaction.
   */
  async update(id: number, changes: Partial<NewChapter>): Promise<number> {
    if (changes.bookId === undefined) {
      const { affected } = await this.db.manager.update(Chapter, { id }, changes);
      return affected ?? 0;
    }
    return this.db.transaction(async (tx) => {
      await lockChapter(tx, id);
      const { affected } = await tx.update(Chapter, { id }, changes);
      if (affected) await countChapterWords(tx, id);
      return affected ?? 0;
    });
  }

  /** Deletes the chapter and its phrases (the foreign key cascades); answers the clips they named. */
  remove(id: number): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      // Locked first: a phrase appended meanwhile is either read here or refused, never deleted unseen.
      await lockChapter(tx, id);
      const lines = await sql<Array<{ path: string }>>(
        tx,
        `SELECT audio_path AS path FROM phrases WHERE chapter_id = ?`,
        [id],
      );
      await tx.delete(Chapter, { id });
      return lines.map((line) => line.path);
    });
  }
}
