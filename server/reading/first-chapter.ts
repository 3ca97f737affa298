import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Chapter } from '../chapters/chapter.entity';

/**
 * A subquery for the number of the first chapter of the book of chapter alias `c`: the first chapter (the
 * lowest number, whatever it is) is free. For queries that decide access row by row (see access.ts).
 */
export const firstChapterNo = <T extends ObjectLiteral>(sub: SelectQueryBuilder<T>) =>
  sub.select('MIN(c1.chapterNo)').from(Chapter, 'c1').where('c1.bookId = c.bookId');
