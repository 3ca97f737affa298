import { Injectable } from '@nestjs/common';
import { DataSource, Like, type EntityManager } from 'typeorm';
import { Book } from '../../books/book.entity';
import { sql } from '../../database/sql';
import { ChaptersRepository } from './chapters.repository';
import { PhrasesRepository, type NewPhrase } from './phrases.repository';

/** A book's own fields; the language may be left to the database's default (none). */
export type NewBook = Omit<Book, 'id' | 'createdAt' | 'updatedAt' | 'chapters' | 'language'> & {
  language?: string | null;
};

/** A chapter of a book created whole (an import, the demo), with its phrases in reading order. */
export interface NewBookChapter {
  title: string;
  chapterNo: number;
  phrases: NewPhrase[];
}

export interface CatalogueCounts {
  books: number;
  chapters: number;
  phrases: number;
}

/**
 * The only writer of books, and where other modules read them. Book codes are unique (a unique index): a
 * clash comes back as the driver's error, for the caller to choose another code.
 */
@Injectable()
export class BooksRepository {
  constructor(
    private readonly db: DataSource,
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
  ) {}

  /** Every book, by title. */
  list(): Promise<Book[]> {
    return this.db.manager.find(Book, { order: { title: 'ASC', id: 'ASC' } });
  }

  byCode(bookCode: string): Promise<Book | null> {
    return this.db.manager.findOneBy(Book, { bookCode });
  }

  byId(id: number): Promise<Book | null> {
    return this.db.manager.findOneBy(Book, { id });
  }

  hasCode(bookCode: string, tx: EntityManager = this.db.manager): Promise<boolean> {
    return tx.existsBy(Book, { bookCode });
  }

  /** The codes taken that start with `prefix` (every code without one), for choosing a free one. */
  async codes(prefix = '', tx: EntityManager = this.db.manager): Promise<string[]> {
    const rows = await tx.find(Book, {
      select: { bookCode: true },
      ...(prefix && { where: { bookCode: Like(`${prefix}%`) } }),
    });
    return rows.map((book) => book.bookCode);
  }

  /** How many books, chapters and phrases there are, in one query. */
  async counts(): Promise<CatalogueCounts> {
    const [row] = await sql<Array<Record<keyof CatalogueCounts, number | string>>>(
      this.db,
      `SELECT (SELECT COUNT(*) FROM books) AS books, (SELECT COUNT(*) FROM chapters) AS chapters,
              (SELECT COUNT(*) FROM phrases) AS phrases`,
    );
    return { books: Number(row.books), chapters: Number(row.chapters), phrases: Number(row.phrases) };
  }

  create(book: NewBook, tx: EntityManager = this.db.manager): Promise<Book> {
    return tx.save(Book, tx.create(Book, book));
  }

  /** A book with its chapters and their phrases, within `tx` (with the caller's other rows, or none). */
  async createWhole(book: NewBook, chapters: NewBookChapter[], tx: EntityManager): Promise<Book> {
    const saved = await this.create(book, tx);
    for (const chapter of chapters) {
      const { id } = await this.chapters.create(
        { bookId: saved.id, title: chapter.title, chapterNo: chapter.chapterNo },
        tx,
      );
      await this.phrases.append(id, chapter.phrases, tx);
    }
    return saved;
  }

  /**
   * Changes a book's fields, re-reading it in the same transaction: answers the row as it was (whose
   * replaced files the caller lets go of), or null when it is gone. An update, never a save, so a book
   * deleted meanwhile stays deleted.
   */
  update(bookCode: string, changes: Partial<NewBook>): Promise<Book | null> {
    return this.db.transaction(async (tx) => {
      const current = await tx.findOneBy(Book, { bookCode });
      if (current) await tx.update(Book, { id: current.id }, changes);
      return current;
    });
  }

  /**
   * Deletes the book, its chapters and phrases (foreign keys cascade); answers every file they named (the
   * cover, the sample, the clips), read in the same transaction as the delete, with the book and its
   * chapters locked on PostgreSQL: an edit replacing a file or a phrase appended at that moment is either
   * seen here or refused after, never left pointing nowhere.
   */
  remove(id: number): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      if (tx.connection.options.type === 'postgres') {
        await tx.query('SELECT id FROM books WHERE id = $1 FOR UPDATE', [id]);
        await tx.query('SELECT id FROM chapters WHERE book_id = $1 FOR UPDATE', [id]);
      }
      const book = await tx.findOneBy(Book, { id });
      if (!book) return [];
      const lines = await sql<Array<{ path: string }>>(
        tx,
        `SELECT p.audio_path AS path FROM phrases p JOIN chapters c ON c.id = p.chapter_id WHERE c.book_id = ?`,
        [id],
      );
      await tx.delete(Book, { id });
      return [book.coverPath, book.sampleAudioPath, ...lines.map((line) => line.path)];
    });
  }
}
