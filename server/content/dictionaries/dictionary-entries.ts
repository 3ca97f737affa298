import type { EntityManager } from 'typeorm';
import { cutText } from '../../platform/common/cut-text';
import { changedRows, sql } from '../../platform/database/sql';
import { foldWord } from './fold';
import type { ParsedEntry } from './formats/types';

/**
 * The SQL of `dictionary_entries` (docs/dictionaries.md, "Atomicity: generations"): entries are written and removed
 * a batch at a time, never in one long statement, so that SQLite's one writer is never held for a whole
 * dictionary and PostgreSQL's transactions stay short.
 */

/** Rows per INSERT: 6 parameters each, far below either database's limit on bound parameters. */
const ROWS_PER_INSERT = 250;
/** Inserts per transaction on PostgreSQL, where each commit waits for the disk. */
const INSERTS_PER_TRANSACTION = 8;
/** Rows per DELETE. */
const ROWS_PER_DELETE = 5_000;

/** The widths of the columns (the migration's). */
export const HEADWORD_MAX = 200;
const POS_MAX = 40;

const ROW = '(?, ?, ?, ?, ?, ?)';
const insertSql = (rows: number) =>
  `INSERT INTO dictionary_entries (dictionary_id, generation, headword, folded, definition, pos) VALUES ${Array(
    rows,
  )
    .fill(ROW)
    .join(', ')}`;
const FULL_INSERT = insertSql(ROWS_PER_INSERT);

/** PostgreSQL refuses NUL in text; a parser should never give one, but a 500 must not hinge on it. */
const noNul = (text: string) => (text.includes('\0') ? text.replace(/\0/g, '') : text);

/**
 * The row's values, or null for an entry no lookup could reach: a blank headword, or one longer than the
 * column (no word a reader taps is 200 characters long).
 */
function rowOf(dictionaryId: number, generation: number, entry: ParsedEntry): unknown[] | null {
  const headword = noNul(entry.headword);
  const folded = foldWord(headword);
  if (!headword.trim() || headword.length > HEADWORD_MAX || folded.length > HEADWORD_MAX) return null;
  const pos = entry.pos ? cutText(noNul(entry.pos), POS_MAX) : null;
  return [dictionaryId, generation, headword, folded, noNul(entry.definition), pos || null];
}

/**
 * Writes `entries` as generation `generation` of the dictionary, in multi-row INSERTs; answers how many
 * rows it wrote and how many it left out. `db` is the claim's connection: on PostgreSQL a connection of
 * its own, whose short transactions nobody else's queries join, and which works on one batch while the
 * file gives the next; on SQLite every INSERT is its own transaction.
 */
export async function writeEntries(
  db: EntityManager,
  dictionaryId: number,
  generation: number,
  entries: AsyncIterable<ParsedEntry>,
): Promise<{ written: number; skipped: number }> {
  const runner = db.queryRunner;
  let inserts = 0;
  const insert = async (params: unknown[], rows: number) => {
    if (runner && !runner.isTransactionActive) await runner.startTransaction();
    await sql(db, rows === ROWS_PER_INSERT ? FULL_INSERT : insertSql(rows), params);
    if (runner && ++inserts % INSERTS_PER_TRANSACTION === 0) await runner.commitTransaction();
  };
  // One INSERT in flight at a time; its failure surfaces at the next wait.
  let pending: Promise<void> = Promise.resolve();
  const send = async (params: unknown[], rows: number) => {
    await pending;
    pending = insert(params, rows);
    pending.catch(() => undefined);
  };
  let params: unknown[] = [];
  let rows = 0;
  let written = 0;
  let skipped = 0;
  try {
    for await (const entry of entries) {
      const row = rowOf(dictionaryId, generation, entry);
      if (!row) {
        skipped++;
        continue;
      }
      params.push(...row);
      if (++rows === ROWS_PER_INSERT) {
        await send(params, rows);
        written += rows;
        params = [];
        rows = 0;
      }
    }
    if (rows > 0) await send(params, rows);
    written += rows;
    await pending;
    if (runner?.isTransactionActive) await runner.commitTransaction();
  } catch (error) {
    await pending.catch(() => undefined);
    if (runner?.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  }
  return { written, skipped };
}

/** Removes every entry of one generation of a dictionary, a batch at a time; answers how many. */
export async function deleteGeneration(db: EntityManager, dictionaryId: number, generation: number) {
  let removed = 0;
  for (;;) {
    const n = await changedRows(
      db,
      `DELETE FROM dictionary_entries WHERE id IN (
         SELECT id FROM dictionary_entries WHERE dictionary_id = ? AND generation = ? LIMIT ?)`,
      [dictionaryId, generation, ROWS_PER_DELETE],
    );
    removed += n;
    if (n < ROWS_PER_DELETE) return removed;
  }
}

/**
 * The generations a dictionary has rows of besides `live` (a crash's leftovers), each found by one index
 * probe on (dictionary_id, generation) rather than a scan of the dictionary's rows.
 */
export async function otherGenerations(db: EntityManager, dictionaryId: number, live: number) {
  const found: number[] = [];
  for (const [fn, op] of [
    ['MAX', '<'],
    ['MIN', '>'],
  ] as const) {
    let from = live;
    for (;;) {
      const [row] = await sql<Array<{ g: number | string | null }>>(
        db,
        `SELECT ${fn}(generation) AS g FROM dictionary_entries WHERE dictionary_id = ? AND generation ${op} ?`,
        [dictionaryId, from],
      );
      if (row?.g === null || row?.g === undefined) break;
      from = Number(row.g);
      found.push(from);
    }
  }
  return found;
}

/** Removes every entry of a dictionary that is not of generation `live` (all of them for live = 0). */
export async function deleteOtherGenerations(db: EntityManager, dictionaryId: number, live: number) {
  let removed = 0;
  for (const generation of await otherGenerations(db, dictionaryId, live))
    removed += await deleteGeneration(db, dictionaryId, generation);
  return removed;
}
