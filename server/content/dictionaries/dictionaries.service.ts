import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { ValidationFailed } from '../../platform/common/api-error';
import type { MessageAnswer } from '../../platform/common/answers';
import type { UploadedFile } from '../../platform/common/uploaded-file.validator';
import { DictionariesRepository, type DictionaryRow } from './dictionaries.repository';
import {
  toDictionaryResponse,
  type CreateDictionaryDto,
  type DictionaryAnswer,
  type DictionaryListAnswer,
  type ReplaceDictionaryDto,
} from './dictionaries.dto';
import { DictionaryClaims, type DictionaryClaim } from './dictionary-claims';
import { deleteGeneration, deleteOtherGenerations, writeEntries } from './dictionary-entries';
import { settleFacts } from './dictionary-facts';
import { openDictionary } from './formats/open';
import { DictionaryFileError, type DictionaryLimits, type OpenedDictionary } from './formats/types';

/**
 * The most one dictionary may hold (docs/dictionaries.md, "Bounds"): FreeDict's German-English has about
 * half a million entries; a hostile file stops at the limit with a 422 rather than filling the database.
 */
export const DICTIONARY_LIMITS: DictionaryLimits = { entries: 2_000_000, definitionChars: 20_000 };

const NOT_FOUND = 'Dictionary not found.';

/**
 * Imports, replaces and deletes dictionaries (docs/dictionaries.md). An import writes a new generation
 * of entries beside the live one, then moves the row to it in one statement, then removes the old one:
 * a lookup sees the old dictionary or the new, and a failure at any point leaves the old one as it was.
 */
@Injectable()
export class DictionariesService {
  private readonly logger = new Logger(DictionariesService.name);

  constructor(
    private readonly rows: DictionariesRepository,
    private readonly claims: DictionaryClaims,
  ) {}

  async list(): Promise<DictionaryListAnswer> {
    return { data: (await this.rows.list()).map(toDictionaryResponse) };
  }

  async create(dto: CreateDictionaryDto): Promise<DictionaryAnswer> {
    return this.withOpened(dto.files, async (opened) => {
      const facts = settleFacts(dto, opened, names(dto.files), null);
      const { id, claim } = await this.claims.create((db) =>
        this.rows.insertHidden(db, { ...facts, entries: 0 }),
      );
      try {
        await this.importInto(claim, id, 0, opened, facts);
      } catch (error) {
        // Nothing half-imported: the hidden row goes with whatever was written.
        await this.cleanUp(id, () => this.discard(claim, id));
        throw error;
      } finally {
        await claim.release();
      }
      return this.answer(id);
    });
  }

  async replace(id: number, dto: ReplaceDictionaryDto): Promise<DictionaryAnswer> {
    await this.live(id);
    return this.withOpened(dto.files, async (opened) => {
      const claim = await this.claims.claim(id);
      try {
        // Read again under the claim: another instance may have replaced or deleted it meanwhile.
        const current = await this.live(id, claim);
        // A crash's leftovers would otherwise join the new generation (current + 1) or outlive it.
        await deleteOtherGenerations(claim.db, id, current.generation);
        const facts = settleFacts(dto, opened, names(dto.files), current);
        await this.importInto(claim, id, current.generation, opened, facts);
        await this.afterFlip(claim, id, current.generation);
      } finally {
        await claim.release();
      }
      return this.answer(id);
    });
  }

  /** Hides the dictionary at once, then removes its entries a batch at a time, then its row. */
  async remove(id: number): Promise<MessageAnswer> {
    await this.live(id);
    const claim = await this.claims.claim(id);
    try {
      await this.live(id, claim);
      await this.rows.hide(claim.db, id);
      await this.discard(claim, id);
    } finally {
      await claim.release();
    }
    return { message: 'Dictionary deleted.' };
  }

  /**
   * Writes the opened files as generation `from + 1`, then flips the row to it with its facts. On a
   * failure the new generation's rows are removed and the row stays at `from`.
   */
  private async importInto(
    claim: DictionaryClaim,
    id: number,
    from: number,
    opened: OpenedDictionary,
    facts: ReturnType<typeof settleFacts>,
  ): Promise<void> {
    const to = from + 1;
    try {
      const { written } = await writeEntries(claim.db, id, to, opened.entries());
      if (written === 0) throw ValidationFailed.field('files', 'The files hold no dictionary entries.');
      if (!(await this.rows.flip(claim.db, id, from, to, { ...facts, entries: written })))
        throw new Error(`dictionary ${id} left generation ${from} during its import`);
    } catch (error) {
      await this.cleanUp(id, () => deleteGeneration(claim.db, id, to));
      throw error;
    }
  }

  /** The old generation goes after the flip; should that fail, the sweep finishes it at the next boot. */
  private async afterFlip(claim: DictionaryClaim, id: number, old: number): Promise<void> {
    await deleteGeneration(claim.db, id, old).catch((error: unknown) =>
      this.logger.warn(`Dictionary ${id}: its replaced entries stay until the next sweep: ${String(error)}`),
    );
  }

  /**
   * Removes a failed import's rows; should that fail too (the database gone), the client hears of the
   * first failure, and the sweep removes the rows at the next boot (they are of no live generation).
   */
  private async cleanUp(id: number, work: () => Promise<unknown>): Promise<void> {
    await work().catch((error: unknown) =>
      this.logger.warn(
        `Dictionary ${id}: a failed import's rows stay until the next sweep: ${String(error)}`,
      ),
    );
  }

  /** Removes every entry of a hidden dictionary, then the row. */
  private async discard(claim: DictionaryClaim, id: number): Promise<void> {
    await deleteOtherGenerations(claim.db, id, 0);
    await this.rows.remove(claim.db, id);
  }

  /** Opens the uploaded files as one dictionary, always closing it; a broken file is a 422. */
  private async withOpened<T>(files: UploadedFile[], work: (opened: OpenedDictionary) => Promise<T>) {
    let opened: OpenedDictionary | undefined;
    try {
      const dictionary: OpenedDictionary = await openDictionary(
        files.map((file) => ({ name: file.originalname, path: file.path, size: file.size })),
        DICTIONARY_LIMITS,
      );
      opened = dictionary;
      return await work(dictionary);
    } catch (error) {
      if (error instanceof DictionaryFileError)
        throw new ValidationFailed({ files: [error.message] }, error.message);
      throw error;
    } finally {
      await opened?.close();
    }
  }

  /** The live dictionary (a hidden one is not found). */
  private async live(id: number, claim?: DictionaryClaim): Promise<DictionaryRow> {
    const row = await this.rows.find(id, claim?.db);
    if (!row || row.generation === 0) throw new NotFoundException(NOT_FOUND);
    return row;
  }

  private async answer(id: number): Promise<DictionaryAnswer> {
    return { data: toDictionaryResponse(await this.live(id)) };
  }
}

const names = (files: UploadedFile[]) => files.map((file) => file.originalname);
