import { ConflictException } from '@nestjs/common';
import { LessThan, type DataSource } from 'typeorm';
import { RuleFailed } from '../common/api-error';
import { isUniqueViolation } from '../database/db-errors';
import { changedRows, sql } from '../database/sql';
import { WordForm, WordFormSet, type WordFormOrigin } from './word-form.entity';
import type { FormLemma } from './types';

/**
 * Rows per INSERT: 5 parameters a row stays under 999, the fewest parameters an SQLite build may take.
 * A transaction holds a few statements: short enough that SQLite's one writer is never kept long
 * (lookups and other writes go between two), long enough that commits do not dominate.
 */
const ROWS_PER_INSERT = 190;
const INSERTS_PER_TRANSACTION = 3;
/** Ids per DELETE when a generation goes: one primary-key range each (word_forms has no generation index). */
const IDS_PER_DELETE = 2000;

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
 * share a generation. Generations only grow, so "older than the live one" tells the leftovers apart.
 */
export class WordFormGenerations {
  constructor(
    private readonly db: DataSource,
    private readonly maxForms: number,
  ) {}

  async replace(lang: string, origin: WordFormOrigin, pairs: AsyncIterable<FormLemma>): Promise<SetCounts> {
    const generation = await this.claim(lang, origin);
    try {
      const written = await this.write(lang, origin, generation, pairs);
      const counts = await this.counts(lang, origin, generation);
      // A boot sweep on another instance may have removed rows of this import as leftovers.
      if (counts.rows !== written) throw new ConflictException('The import was interrupted. Send it again.');
      const previous = await this.flip(lang, origin, generation, counts);
      if (previous !== null) await this.deleteRows('generation < ?', lang, origin, generation, previous);
      return { forms: counts.forms, lemmas: counts.lemmas };
    } catch (error) {
      await this.removeGeneration(lang, origin, generation);
      throw error;
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
    if (gone) await this.removeGeneration(lang, origin, Number(live.generation));
    return gone > 0;
  }

  /**
   * At boot: rows of generations that are not live (an import cut short by a crash, a delete not
   * finished). Reads word_forms once; with several instances on PostgreSQL it may remove the rows of an
   * import under way elsewhere, which then answers 409 rather than going live incomplete.
   */
  async sweep(): Promise<number> {
    const stale = await sql<Array<{ lang: string; origin: WordFormOrigin; generation: number }>>(
      this.db,
      `SELECT DISTINCT f.lang AS lang, f.origin AS origin, f.generation AS generation
         FROM word_forms f
         LEFT JOIN word_form_sets s ON s.lang = f.lang AND s.origin = f.origin AND s.generation = f.generation
        WHERE s.lang IS NULL`,
    );
    for (const { lang, origin, generation } of stale)
      await this.removeGeneration(lang, origin, Number(generation));
    return stale.length;
  }

  private async claim(lang: string, origin: WordFormOrigin): Promise<number> {
    const repository = this.db.getRepository(WordForm);
    const { identifiers } = await repository.insert({ lang, origin, generation: 0, form: '', lemma: '' });
    const id = Number(identifiers[0].id);
    await repository.delete({ id });
    return id;
  }

  private async write(
    lang: string,
    origin: WordFormOrigin,
    generation: number,
    pairs: AsyncIterable<FormLemma>,
  ): Promise<number> {
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
        written += await this.insert(lang, origin, generation, batch);
        batch = [];
      }
    }
    return written + (await this.insert(lang, origin, generation, batch));
  }

  private async insert(lang: string, origin: string, generation: number, rows: FormLemma[]): Promise<number> {
    if (rows.length === 0) return 0;
    await this.db.transaction(async (manager) => {
      for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
        const chunk = rows.slice(start, start + ROWS_PER_INSERT);
        await sql(
          manager,
          `INSERT INTO word_forms (lang, origin, generation, form, lemma) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
          chunk.flatMap(({ form, lemma }) => [lang, origin, generation, form, lemma]),
        );
      }
    });
    return rows.length;
  }

  private async counts(lang: string, origin: string, generation: number) {
    const [row] = await sql<
      Array<{ rows: number | string; forms: number | string; lemmas: number | string }>
    >(
      this.db,
      `SELECT COUNT(*) AS rows, COUNT(DISTINCT form) AS forms, COUNT(DISTINCT lemma) AS lemmas
         FROM word_forms WHERE lang = ? AND origin = ? AND generation = ?`,
      [lang, origin, generation],
    );
    return { rows: Number(row.rows), forms: Number(row.forms), lemmas: Number(row.lemmas) };
  }

  /**
   * One short transaction: the set moves to `generation`, unless a newer import got there first.
   * Answers the generation it replaced, or null for a first import.
   */
  private async flip(
    lang: string,
    origin: WordFormOrigin,
    generation: number,
    counts: SetCounts,
  ): Promise<number | null> {
    const newer = new ConflictException('A newer import of these forms finished first.');
    try {
      return await this.db.transaction(async (manager) => {
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

  private removeGeneration(lang: string, origin: string, generation: number): Promise<void> {
    return this.deleteRows('generation = ?', lang, origin, generation, generation);
  }

  /**
   * Deletes the set's rows that meet `condition`, a range of ids at a time from `from` (word_forms has no
   * index on generation, but a generation's rows all come after its number, the id of its claim).
   */
  private async deleteRows(
    condition: string,
    lang: string,
    origin: string,
    generation: number,
    from: number,
  ) {
    const [{ high }] = await sql<Array<{ high: number | null }>>(
      this.db,
      'SELECT MAX(id) AS high FROM word_forms',
    );
    for (let start = from; high !== null && start <= Number(high); start += IDS_PER_DELETE) {
      await sql(
        this.db,
        `DELETE FROM word_forms WHERE id >= ? AND id < ? AND lang = ? AND origin = ? AND ${condition}`,
        [start, start + IDS_PER_DELETE, lang, origin, generation],
      );
    }
  }
}
