import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { dateFromDb } from '../../platform/database/db-dates';
import { changedRows, sql } from '../../platform/database/sql';
import type { DictionaryFormat } from './dictionary.entity';

/** A dictionaries row as the API shows it. */
export interface DictionaryRow {
  id: number;
  name: string;
  source: string;
  target: string;
  format: DictionaryFormat;
  entries: number;
  licence: string | null;
  attribution: string | null;
  generation: number;
  createdAt: Date;
  updatedAt: Date;
}

/** What an import settles about a dictionary, written with its new generation in one statement. */
export type DictionaryFacts = Pick<
  DictionaryRow,
  'name' | 'source' | 'target' | 'format' | 'entries' | 'licence' | 'attribution'
>;

type RawRow = Omit<DictionaryRow, 'createdAt' | 'updatedAt' | 'entries' | 'generation' | 'id'> & {
  id: number | string;
  entries: number | string;
  generation: number | string;
  created_at: Date | string;
  updated_at: Date | string;
};

const COLUMNS = `id, name, source, target, format, entries, licence, attribution, generation, created_at, updated_at`;

const fromRaw = (row: RawRow): DictionaryRow => ({
  id: Number(row.id),
  name: row.name,
  source: row.source,
  target: row.target,
  format: row.format,
  entries: Number(row.entries),
  licence: row.licence,
  attribution: row.attribution,
  generation: Number(row.generation),
  createdAt: dateFromDb(row.created_at),
  updatedAt: dateFromDb(row.updated_at),
});

/**
 * The `dictionaries` table, in SQL both databases take (its entries: dictionary-entries.ts). A row whose
 * generation is 0 is hidden: a first import still being written, or a dictionary being deleted.
 */
@Injectable()
export class DictionariesRepository {
  constructor(private readonly db: DataSource) {}

  /** The live dictionaries, by language pair then name. */
  async list(): Promise<DictionaryRow[]> {
    const rows = await sql<RawRow[]>(
      this.db,
      `SELECT ${COLUMNS} FROM dictionaries WHERE generation > 0 ORDER BY source, target, name, id`,
    );
    return rows.map(fromRaw);
  }

  /** Every row, hidden ones too (the sweep's list). */
  async all(): Promise<Array<Pick<DictionaryRow, 'id' | 'generation'>>> {
    const rows = await sql<Array<{ id: number | string; generation: number | string }>>(
      this.db,
      `SELECT id, generation FROM dictionaries ORDER BY id`,
    );
    return rows.map((row) => ({ id: Number(row.id), generation: Number(row.generation) }));
  }

  /** The row, hidden or not; null when there is none. */
  async find(id: number, db: EntityManager = this.db.manager): Promise<DictionaryRow | null> {
    const [row] = await sql<RawRow[]>(db, `SELECT ${COLUMNS} FROM dictionaries WHERE id = ?`, [id]);
    return row ? fromRaw(row) : null;
  }

  /** A new hidden row (generation 0, no entries yet); answers its id. */
  async insertHidden(db: EntityManager, facts: DictionaryFacts): Promise<number> {
    const [row] = await sql<Array<{ id: number | string }>>(
      db,
      `INSERT INTO dictionaries (name, source, target, format, entries, licence, attribution, generation)
       VALUES (?, ?, ?, ?, 0, ?, ?, 0) RETURNING id`,
      [facts.name, facts.source, facts.target, facts.format, facts.licence, facts.attribution],
    );
    return Number(row.id);
  }

  /**
   * Moves the dictionary from generation `from` to `to` with its new facts, in one statement: lookups
   * see the old entries or the new ones, never a mix. False when the row is no longer at `from`.
   */
  async flip(db: EntityManager, id: number, from: number, to: number, facts: DictionaryFacts) {
    const changed = await changedRows(
      db,
      `UPDATE dictionaries SET generation = ?, name = ?, source = ?, target = ?, format = ?, entries = ?,
         licence = ?, attribution = ?, updated_at = CURRENT_TIMESTAMP
       WHERE id = ? AND generation = ?`,
      [
        to,
        facts.name,
        facts.source,
        facts.target,
        facts.format,
        facts.entries,
        facts.licence,
        facts.attribution,
        id,
        from,
      ],
    );
    return changed === 1;
  }

  /** Hides the row (generation 0) before its entries go, so no lookup sees part of them. */
  async hide(db: EntityManager, id: number): Promise<void> {
    await changedRows(db, `UPDATE dictionaries SET generation = 0 WHERE id = ?`, [id]);
  }

  /** Removes the row itself; its entries should be gone already (the cascade would be one long delete). */
  async remove(db: EntityManager, id: number): Promise<void> {
    await changedRows(db, `DELETE FROM dictionaries WHERE id = ?`, [id]);
  }
}
