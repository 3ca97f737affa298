import type { DataSource } from 'typeorm';
import { dateToDb } from '../../platform/database/db-dates';
import { sql } from '../../platform/database/sql';

/** A language's known words at the end of each day: the dashboard's line (docs/word-status.md). */
export interface KnownWordsSeries {
  lang: string;
  /** One count per day, oldest first: the words known at that day's end. */
  known: number[];
}

/**
 * How many words the member knew at the end of each day whose midnights are given (`midnights[i]` starts
 * day i; one more closes the last), per language. A word counts from its status's latest change to known:
 * one said "new" again leaves the whole line, as the member now says they do not know it; one set after
 * the last day (a clock ahead) counts on the last. One query: each
 * status is given the index of the day it was set (-1 before the first), counted per language and index.
 */
export async function knownWordsByDay(
  db: DataSource,
  userId: number,
  midnights: Date[],
): Promise<KnownWordsSeries[]> {
  const days = midnights.length - 1;
  const cases = midnights
    .slice(1)
    .map(() => 'WHEN updated_at < ? THEN ?')
    .join(' ');
  const rows = await sql<Array<{ lang: string; day: number | string; n: number | string }>>(
    db,
    `SELECT t.lang AS lang, t.day AS day, COUNT(*) AS n FROM (
       SELECT lang, CASE WHEN updated_at < ? THEN -1 ${cases} ELSE ${days - 1} END AS day
         FROM word_statuses WHERE user_id = ? AND status = 'known'
     ) t GROUP BY t.lang, t.day ORDER BY t.lang`,
    [dateToDb(db, midnights[0]), ...midnights.slice(1).flatMap((at, i) => [dateToDb(db, at), i]), userId],
  );
  const byLang = new Map<string, number[]>();
  for (const row of rows) {
    const perDay = byLang.get(String(row.lang)) ?? Array.from({ length: days + 1 }, () => 0);
    // Index -1 (before the first day) is kept at the end of the array, out of the way, then added to all.
    perDay[Number(row.day) === -1 ? days : Number(row.day)] += Number(row.n);
    byLang.set(String(row.lang), perDay);
  }
  return [...byLang].map(([lang, perDay]) => {
    const before = perDay[days];
    let running = before;
    return { lang, known: perDay.slice(0, days).map((n) => (running += n)) };
  });
}
