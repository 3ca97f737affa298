import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, In, IsNull, Like, type EntityManager } from 'typeorm';
import { Book, type CefrLevel } from '../entities/book.entity';
import { sql } from '../../../platform/database/sql';
import { dateFromDb } from '../../../platform/database/db-dates';
import { freeChapterNoOfBookSql } from '../free-chapters';
import { canonicalLanguage } from '../languages';
import { searchKey } from '../search-key';
import { countBookWords, fillChapterWords } from './chapter-words';
import type { BrowseFilter } from '../browse-query';
import { browseBooks, type BrowseOptions, type BrowsePage } from './book-browse';
import { fillBookWords, writeBookWords, type SearchedFields } from './book-words';
import { booksWithUnmeasuredClips, setSampleLength } from './clip-lengths';
import { ChaptersRepository } from './chapters.repository';
import { PhrasesRepository, type PhraseToAppend } from './phrases.repository';

/** A book's own fields; the language and the level may be left to the database's default (none). */
export type NewBook = Omit<
  Book,
  'id' | 'createdAt' | 'updatedAt' | 'chapters' | 'language' | 'cefr' | 'titleKey' | 'searchText'
> & {
  language?: string | null;
  cefr?: CefrLevel | null;
};

/** What the search compares, computed from the book's own fields on every write (content/catalogue/search-key.ts). */
function searchColumns(book: SearchedFields): Pick<Book, 'titleKey' | 'searchText'> {
  return {
    // Never empty (a title of punctuation alone is a space), since an empty key marks a book to backfill.
    titleKey: (searchKey(book.title) || ' ').slice(0, 400),
    searchText: searchKey([book.title, book.author, book.narratedBy, book.description].join(' ')),
  };
}

/** A language tag in its one canonical spelling ("pt-PT"), so that a filter finds every book of it. */
function withCanonicalLanguage<T extends { language?: string | null }>(fields: T): T {
  return fields.language ? { ...fields, language: canonicalLanguage(fields.language) } : fields;
}

/** Books whose search columns are filled per step of the boot's backfill. */
const FILL_PAGE = 200;

/** A chapter of a book created whole (an import, the demo), with its phrases in reading order. */
export interface NewBookChapter {
  title: string;
  chapterNo: number;
  phrases: PhraseToAppend[];
}

export interface SitemapBook {
  id: number;
  code: string;
  updatedAt: Date;
  /** The free chapter's number (its reader page is public), null for a book without chapters. */
  freeChapterNo: number | null;
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
export class BooksRepository implements OnApplicationBootstrap {
  /** How many older chapters the boot's background fill counted, once it is done (coverage-refresher.ts). */
  chaptersCounted: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly db: DataSource,
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
  ) {}

  /**
   * Books kept before the search columns and words existed (or written by an older version, or copied by
   * `npm run migrate-to`) get them here, at boot: the migrations cannot call the application's normaliser.
   */
  async onApplicationBootstrap(): Promise<void> {
    for (;;) {
      const books = await this.db.manager.find(Book, {
        select: {
          id: true,
          title: true,
          author: true,
          narratedBy: true,
          description: true,
          language: true,
          updatedAt: true,
        },
        where: { titleKey: '' },
        take: FILL_PAGE,
      });
      for (const book of books)
        await this.db.manager.update(
          Book,
          { id: book.id },
          // updated_at kept as it was: filling derived columns is no change of the book (sitemaps' lastmod).
          {
            ...withCanonicalLanguage({ language: book.language }),
            ...searchColumns(book),
            updatedAt: book.updatedAt,
          },
        );
      if (books.length < FILL_PAGE) break;
    }
    await fillBookWords(this.db);
    // In the background: an upgraded installation counts its chapters' words without holding up its first
    // request (coverage leaves out what is not counted yet).
    this.chaptersCounted = fillChapterWords(this.db).catch((error: unknown) => {
      console.warn(`Counting the chapters' words failed: ${String(error)}`);
      // Some chapters may have been counted before it failed.
      return 1;
    });
  }

  /** Books with a clip or sample whose length is not yet its decoded one (clip-lengths.ts). */
  codesWithUnmeasuredClips(): Promise<string[]> {
    return booksWithUnmeasuredClips(this.db);
  }

  /** Puts a sample's decoded length on its book (clip-lengths.ts); answers whether it changed. */
  setSampleLength(bookId: number, key: string, ms: number): Promise<boolean> {
    return setSampleLength(this.db, bookId, key, ms);
  }

  /** A page of the catalogue, filtered, searched and sorted, with its facet counts (book-browse.ts). */
  browse(filter: BrowseFilter, options?: BrowseOptions): Promise<BrowsePage> {
    return browseBooks(this.db.manager, filter, options);
  }

  /** The newest books, at most `limit`: what bounded lists show (the seed's pages, guest/list-book). */
  newest(limit: number): Promise<Book[]> {
    return this.db.manager.find(Book, { order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  /** Each language that has books (its canonical tag, null for none) with how many, most books first. */
  async languages(): Promise<Array<{ language: string | null; books: number; lastChange: Date }>> {
    const rows = await this.db.manager
      .createQueryBuilder(Book, 'b')
      .select('b.language', 'language')
      .addSelect('COUNT(*)', 'books')
      .addSelect('MAX(b.updated_at)', 'last_change')
      .groupBy('b.language')
      .getRawMany<{ language: string | null; books: number | string; last_change: Date | string }>();
    return rows
      .map((row) => ({
        language: row.language,
        books: Number(row.books),
        lastChange: dateFromDb(row.last_change),
      }))
      .sort((a, b) => b.books - a.books || String(a.language).localeCompare(String(b.language)));
  }

  /**
   * What the sitemap lists of each book, in id order after `afterId`, at most `limit`: one bounded query
   * per step, so a sitemap of any size is written with the memory of one step.
   */
  async sitemapRows(afterId: number, limit: number): Promise<SitemapBook[]> {
    const rows = await this.db.manager
      .createQueryBuilder(Book, 'b')
      .select('b.id', 'id')
      .addSelect('b.book_code', 'code')
      .addSelect('b.updated_at', 'updated_at')
      .addSelect(freeChapterNoOfBookSql('b'), 'free_chapter_no')
      .where('b.id > :afterId', { afterId })
      .orderBy('b.id', 'ASC')
      .limit(limit)
      .getRawMany<{ id: number; code: string; updated_at: Date | string; free_chapter_no: number | null }>();
    return rows.map((row) => ({
      id: Number(row.id),
      code: row.code,
      updatedAt: dateFromDb(row.updated_at),
      freeChapterNo: row.free_chapter_no === null ? null : Number(row.free_chapter_no),
    }));
  }

  /** The id of the book at position `offset` (from 0) in id order: where a sitemap file after it starts. */
  async idBefore(offset: number): Promise<number> {
    const row = await this.db.manager
      .createQueryBuilder(Book, 'b')
      .select('b.id', 'id')
      .orderBy('b.id', 'ASC')
      .offset(offset - 1)
      .limit(1)
      .getRawOne<{ id: number }>();
    // Past the last book: the largest id an integer column holds, so the next step finds nothing.
    return row ? Number(row.id) : 2_147_483_647;
  }

  /** How many books there are, and when the catalogue's books last changed (null when there are none). */
  async summary(): Promise<{ books: number; lastChange: Date | null }> {
    const row = await this.db.manager
      .createQueryBuilder(Book, 'b')
      .select('COUNT(*)', 'books')
      .addSelect('MAX(b.updated_at)', 'last_change')
      .getRawOne<{ books: number | string; last_change: Date | string | null }>();
    return {
      books: Number(row?.books ?? 0),
      lastChange: row?.last_change ? dateFromDb(row.last_change) : null,
    };
  }

  /** How many books of a language (a canonical tag) there are at each CEFR level, null for none. */
  async levelCounts(language: string): Promise<Array<{ cefr: CefrLevel | null; books: number }>> {
    const rows = await this.db.manager
      .createQueryBuilder(Book, 'b')
      .select('b.cefr', 'cefr')
      .addSelect('COUNT(*)', 'books')
      .where('b.language = :language', { language })
      .groupBy('b.cefr')
      .getRawMany<{ cefr: CefrLevel | null; books: number | string }>();
    return rows.map((row) => ({ cefr: row.cefr, books: Number(row.books) }));
  }

  /** The newest books of a language (a canonical tag) at one CEFR level (null: without one), at most `limit`. */
  newestAt(language: string, cefr: CefrLevel | null, limit: number): Promise<Book[]> {
    return this.db.manager.find(Book, {
      where: { language, cefr: cefr ?? IsNull() },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  byCode(bookCode: string): Promise<Book | null> {
    return this.db.manager.findOneBy(Book, { bookCode });
  }

  /** The books of these codes that exist (their id, code and language), in one query. */
  async byCodes(codes: string[]): Promise<Array<Pick<Book, 'id' | 'bookCode' | 'language'>>> {
    if (!codes.length) return [];
    return this.db.manager.find(Book, {
      select: { id: true, bookCode: true, language: true },
      where: { bookCode: In(codes) },
    });
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

  /** A new book and its search words: within `tx` (with the caller's other rows), else in a transaction. */
  create(book: NewBook, tx?: EntityManager): Promise<Book> {
    const write = async (db: EntityManager) => {
      const saved = await db.save(
        Book,
        db.create(Book, { ...withCanonicalLanguage(book), ...searchColumns(book) }),
      );
      await writeBookWords(db, saved.id, book);
      return saved;
    };
    return tx ? write(tx) : this.db.transaction(write);
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
   * deleted meanwhile stays deleted. The search columns and words are written from the fields as they
   * end up, read under the book's row lock on PostgreSQL: two edits at once cannot mix their words. (NO KEY
   * UPDATE: it waits for other edits and the boot's fill, not for members' rows that refer to the book.)
   */
  update(bookCode: string, changes: Partial<NewBook>): Promise<Book | null> {
    return this.db.transaction(async (tx) => {
      if (tx.connection.options.type === 'postgres')
        await tx.query('SELECT id FROM books WHERE book_code = $1 FOR NO KEY UPDATE', [bookCode]);
      const current = await tx.findOneBy(Book, { bookCode });
      if (current) {
        const fields = { ...current, ...changes };
        await tx.update(
          Book,
          { id: current.id },
          { ...withCanonicalLanguage(changes), ...searchColumns(fields) },
        );
        await writeBookWords(tx, current.id, fields);
        // Its running words' keys depend on the language (docs/word-status.md, "Coverage").
        const language = withCanonicalLanguage(changes).language;
        if (language !== undefined && language !== current.language) await countBookWords(tx, current.id);
      }
      return current;
    });
  }

  /**
   * Deletes the book, its chapters, phrases and search words (foreign keys cascade); answers every file
   * they named (the cover, the sample, the clips), read in the same transaction as the delete, with the
   * book and its chapters locked on PostgreSQL: an edit replacing a file or a phrase appended at that
   * moment is either seen here or refused after, never left pointing nowhere.
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
