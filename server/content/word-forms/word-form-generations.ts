import { ConflictException } from '@nestjs/common';
import { LessThan, type DataSource, type EntityManager } from 'typeorm';
import { RuleFailed } from '../../platform/common/api-error';
import { isUniqueViolation } from '../../platform/database/db-errors';
import { changedRows, sql } from '../../platform/database/sql';
import { GenerationClaims } from './generation-claims';
import { WordForm, WordFormSet, type WordFormOrigin } from './word-form.entity';
import type { FormLemma } from './types';

/**
 * Rows per INSERT: each row binds 2 parameters (form, lemma; the set's lang, origin and generation are
 * bound once per statement), so a statement stays under 999, the fewest parameters an SQLite build may
 * take; binding 5 a row made PostgreSQL's import about 1.5 times slower. A transaction holds two
 * statements: short enough that SQLite's one writer is never kept long (lookups and other writes go
 * between two), long enough that commits do not dominate.
 */
const ROWS_PER_INSERT = 300;
const INSERTS_PER_TRANSACTION = 2;
/** Ids per DELETE when a generation goes: one primary-key range each (word_forms has no generation index). */
const IDS_PER_DELETE = 2000;

/** A generation whose rows the sweep found, and its lowest id (where its removal starts). */
export interface Unlive {
  generation: number;
  low: number;
}

/** Counts of one set: distinct forms and distinct lemmas. */
export interface SetCounts {
  forms: number;
  lemmas: number;
}

/**
 * How one language's forms from one origin are replaced as a whole without a lookup ever seeing half of
 * them (docs/word-forms.md, "Generations"): the new rows are written under a new generation number in
 * short transactions, then word_form_sets moves to it in one, then the old rows go in batches. The new
 * number is the id of a row inserted for the purpose (and deleted at once): ids are never given twice,
 * on SQLite (AUTOINCREMENT) as on PostgreSQL (a sequence), so two imports, even on two instances, never
 * share a generation, and a generation number alone names the rows of one import. The import claims its
 * number (generation-claims.ts) before writing a row under it, so the boot sweep leaves it alone.
 */
export class WordFormGenerations {
  private readonly claims: GenerationClaims;

  constructor(
    private readonly db: DataSource,
    private readonly maxForms: number,
  ) {
    this.claims = new GenerationClaims(db);
  }

  async replace(lang: string, origin: WordFormOrigin, pairs: AsyncIterable<FormLemma>): Promise<SetCounts> {
    const generation = await this.newGeneration(lang, origin);
    const claim = await this.claims.tryClaim(generation);
    // Never: the number is new, and nothing of it is written yet for a sweep to be removing.
    if (!claim) throw new Error(`The new generation ${generation} of word forms is claimed already.`);
    try {
      await this.write(claim.db, lang, origin, generation, pairs);
      const counts = await this.counts(claim.db, lang, origin, generation);
      const previous = await this.flip(claim.db, lang, origin, generation, counts);
      if (previous !== null) await this.removeGeneration(claim.db, previous);
      return counts;
    } catch (error) {
      // Only rows that are not live go (removeGeneration), so a failure after the flip keeps the set.
      await this.removeGeneration(claim.db, generation);
      throw error;
    } finally {
      await claim.release();
    }
  }

  /** Removes a set: its row first (lookups stop at once), then its rows in batches. False when none. */
  async remove(lang: string, origin: WordFormOrigin): Promise<boolean> {
    const [live] = await sql<Array<{ generation: number }>>(
      this.db,
      'SELECT generation FROM word_form_sets WHERE lang = ? AND origin = ?',
      [lang, origin],
    );
    if (!live) return false;
    const gone = await changedRows(
      this.db,
      'DELETE FROM word_form_sets WHERE lang = ? AND origin = ? AND generation = ?',
      [lang, origin, live.generation],
    );
    if (gone) await this.removeGeneration(this.db, Number(live.generation));
    return gone > 0;
  }

  /**
   * At boot: removes the rows of generations that are not live (an import cut short by a crash, a
   * replaced generation not yet deleted), one generation after another until `stopping` says so.
   * Answers how many it removed. Safe beside imports on other instances: see sweepGeneration.
   */
  async sweep(stopping: () => boolean = () => false): Promise<number> {
    let swept = 0;
    for (const { generation, low } of await this.unlive()) {
      if (stopping()) break;
      if (await this.sweepGeneration(generation, low)) swept++;
    }
    return swept;
  }

  /** The generations that have rows and are not live, reading word_forms once. */
  async unlive(): Promise<Unlive[]> {
    const rows = await sql<Array<{ generation: number; low: number }>>(
      this.db,
      `SELECT f.generation AS generation, MIN(f.id) AS low
         FROM word_forms f
         LEFT JOIN word_form_sets s ON s.lang = f.lang AND s.origin = f.origin AND s.generation = f.generation
        WHERE s.lang IS NULL
        GROUP BY f.generation`,
    );
    return rows.map((row) => ({ generation: Number(row.generation), low: Number(row.low) }));
  }

  /**
   * Removes the rows of a generation unlive() listed, unless an import is still writing it (it holds
   * the generation's claim: false then). The list may be stale: the import may have finished since and
   * made the generation live, which removeGeneration's condition keeps.
   */
  async sweepGeneration(generation: number, low: number): Promise<boolean> {
    const claim = await this.claims.tryClaim(generation);
    if (!claim) return false;
    try {
      await this.removeGeneration(claim.db, generation, low);
      return true;
    } finally {
      await claim.release();
    }
  }

  /** A number no other import has, nor will: the id of a row inserted and deleted for the purpose. */
  private async newGeneration(lang: string, origin: WordFormOrigin): Promise<number> {
    const repository = this.db.getRepository(WordForm);
    const { identifiers } = await repository.insert({ lang, origin, generation: 0, form: '', lemma: '' });
    const id = Number(identifiers[0].id);
    await repository.delete({ id });
    return id;
  }

  private async write(
    db: EntityManager,
    lang: string,
    origin: WordFormOrigin,
    generation: number,
    pairs: AsyncIterable<FormLemma>,
  ): Promise<void> {
    let batch: FormLemma[] = [];
    let written = 0;
    for await (const pair of pairs) {
      if (written + batch.length >= this.maxForms) {
        throw new RuleFailed(
          `The files give more than ${this.maxForms.toLocaleString('en')} forms, the most one set may hold.`,
        );
      }
      batch.push(pair);
      if (batch.length === ROWS_PER_INSERT * INSERTS_PER_TRANSACTION) {
        written += await this.insert(db, lang, origin, generation, batch);
        batch = [];
      }
    }
    await this.insert(db, lang, origin, generation, batch);
  }

  private async insert(
    db: EntityManager,
    lang: string,
    origin: string,
    generation: number,
    rows: FormLemma[],
  ): Promise<number> {
    if (rows.length === 0) return 0;
    await db.transaction(async (manager) => {
      for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
        const chunk = rows.slice(start, start + ROWS_PER_INSERT);
        // VALUES names its columns column1, column2 on both databases.
        await sql(
          manager,
          `INSERT INTO word_forms (lang, origin, generation, form, lemma)
           SELECT CAST(? AS varchar(35)), CAST(? AS varchar(10)), CAST(? AS integer), column1, column2
             FROM (VALUES ${chunk.map(() => '(?, ?)').join(', ')}) AS v`,
          [lang, origin, generation, ...chunk.flatMap(({ form, lemma }) => [form, lemma])],
        );
      }
    });
    return rows.length;
  }

  /** Distinct forms and lemmas: a list may repeat a pair, stored as often as it comes (form-list.ts). */
  private async counts(
    db: EntityManager,
    lang: string,
    origin: string,
    generation: number,
  ): Promise<SetCounts> {
    const [row] = await sql<Array<{ forms: number | string; lemmas: number | string }>>(
      db,
      `SELECT COUNT(DISTINCT form) AS forms, COUNT(DISTINCT lemma) AS lemmas
         FROM word_forms WHERE lang = ? AND origin = ? AND generation = ?`,
      [lang, origin, generation],
    );
    return { forms: Number(row.forms), lemmas: Number(row.lemmas) };
  }

  /**
   * One short transaction: the set moves to `generation`, unless a newer import got there first.
   * Answers the generation it replaced, or null for a first import.
   */
  private async flip(
    db: EntityManager,
    lang: string,
    origin: WordFormOrigin,
    generation: number,
    counts: SetCounts,
  ): Promise<number | null> {
    const newer = new ConflictException('A newer import of these forms finished first.');
    try {
      return await db.transaction(async (manager) => {
        const [live] = await sql<Array<{ generation: number }>>(
          manager,
          'SELECT generation FROM word_form_sets WHERE lang = ? AND origin = ?',
          [lang, origin],
        );
        const { affected } = await manager.update(
          WordFormSet,
          { lang, origin, generation: LessThan(generation) },
          { generation, forms: counts.forms, lemmas: counts.lemmas, updatedAt: new Date() },
        );
        if (affected) return Number(live.generation);
        if (live) throw newer;
        await manager.insert(WordFormSet, {
          lang,
          origin,
          generation,
          forms: counts.forms,
          lemmas: counts.lemmas,
          updatedAt: new Date(),
        });
        return null;
      });
    } catch (error) {
      // A first import racing another one for the same set: the other one's row is there now.
      throw isUniqueViolation(error) ? newer : error;
    }
  }

  /**
   * Deletes a generation's rows, a range of ids at a time: word_forms has no index on generation, but a
   * generation's rows all come after its number (the id of its claim), and the number is unique to one
   * set. The range alone, not (lang, form), must lead the plan, hence no condition on lang. Rows of a
   * generation live when a DELETE runs are never deleted: a sweep's list may be older than an import's
   * flip, and an import that fails after its flip must not take its live set with it.
   */
  private async removeGeneration(db: DataSource | EntityManager, generation: number, from = generation) {
    const [{ high }] = await sql<Array<{ high: number | null }>>(
      db,
      'SELECT MAX(id) AS high FROM word_forms',
    );
    for (let start = from; high !== null && start <= Number(high); start += IDS_PER_DELETE) {
      await sql(
        db,
        `DELETE FROM word_forms WHERE id >= ? AND id < ? AND generation = ?
            AND NOT EXISTS (SELECT 1 FROM word_form_sets s
                             WHERE s.lang = word_forms.lang AND s.origin = word_forms.origin
                               AND s.generation = word_forms.generation)`,
        [start, start + IDS_PER_DELETE, generation],
      );
    }
  }
}
