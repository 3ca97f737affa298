import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Book } from '../entities/book.entity';
import { Chapter } from '../entities/chapter.entity';
import { Phrase } from '../entities/phrase.entity';

/**
 * Query-builder fragments for a feature's query over its own table (saved words, listening events,
 * reading places) that shows or aggregates what its rows point to in the catalogue. They keep such a
 * query single: it filters, sorts, groups and pages by the feature's columns and the catalogue's at once,
 * which neither a repository method (it would have to know the feature's table) nor two queries joined in
 * memory (sorting and paging would split) can do. The feature names the joined rows by the aliases below.
 */
export interface CatalogueJoins {
  /** The column holding a phrase id: joined as `p`. */
  phrase?: string;
  /** A phrase that may be gone (a saved place keeps a deleted phrase's row): `p` is then left-joined. */
  phraseMayBeMissing?: boolean;
  /** The column holding a chapter id (`p.chapterId` for the phrase's own): joined as `c`. */
  chapter?: string;
  /** The column holding a book id (`c.bookId` for the chapter's own): joined as `b`. */
  book?: string;
}

export function joinCatalogue<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  joins: CatalogueJoins,
): SelectQueryBuilder<T> {
  if (joins.phrase) {
    const condition = `p.id = ${joins.phrase}`;
    if (joins.phraseMayBeMissing) qb.leftJoin(Phrase, 'p', condition);
    else qb.innerJoin(Phrase, 'p', condition);
  }
  if (joins.chapter) qb.innerJoin(Chapter, 'c', `c.id = ${joins.chapter}`);
  if (joins.book) qb.innerJoin(Book, 'b', `b.id = ${joins.book}`);
  return qb;
}

/** A subquery (for `addSelect`): how many phrases the chapter whose id is in `chapterColumn` has. */
export const phraseCountOf =
  (chapterColumn: string) =>
  <T extends ObjectLiteral>(sub: SelectQueryBuilder<T>) =>
    sub.select('COUNT(counted.id)').from(Phrase, 'counted').where(`counted.chapterId = ${chapterColumn}`);

/** A condition (for `where`): the chapter whose id is in `chapterColumn` is the last of its book. */
export const isLastChapter =
  (chapterColumn: string) =>
  <T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): string => {
    const last = qb
      .subQuery()
      .select('last.id')
      .from(Chapter, 'last')
      .where(
        `last.chapterNo = ${qb
          .subQuery()
          .select('MAX(other.chapterNo)')
          .from(Chapter, 'other')
          .where('other.bookId = last.bookId')
          .getQuery()}`,
      );
    return `${chapterColumn} IN ${last.getQuery()}`;
  };
