import {
  Injectable,
  Logger,
  NotFoundException,
  PayloadTooLargeException,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ValidationFailed } from '../../platform/common/api-error';
import { MessageAnswer } from '../../platform/common/answers';
import { canonicalTag, primaryTag } from '../../platform/common/language-tags';
import { dateFromDb } from '../../platform/database/db-dates';
import { sql } from '../../platform/database/sql';
import { DictionaryFileError, type DictionaryFile } from '../dictionaries/formats/types';
import type { UploadedFile } from '../../platform/common/uploaded-file.validator';
import { MB } from '../../http/body/multipart.interceptor';
import { readFormList } from './form-list';
import { expandHunspell } from './hunspell/hunspell';
import type { FormLemma } from './types';
import type { WordFormOrigin } from './word-form.entity';
import { WordFormGenerations } from './word-form-generations';
import { recountLanguage } from '../catalogue/repository/chapter-words';
import {
  MAX_FORMS,
  WORD_FORM_FILE_LIMITS,
  type WordFormSetsAnswer,
  type WordFormsImportAnswer,
  type WordFormsImportDto,
} from './word-forms.dto';

const WHICH_FILES = 'Send a Hunspell .aff and .dic, or one .tsv or .csv list of forms.';

/** What the sent files are: a Hunspell pair or a list, and the pairs they give (streamed). */
function sourceOf(files: UploadedFile[]): { origin: WordFormOrigin; pairs: AsyncIterable<FormLemma> } {
  const named = files.map((file): DictionaryFile => ({
    name: file.originalname,
    path: file.path,
    size: file.size,
  }));
  const withExtension = (ext: string) => named.filter((file) => file.name.toLowerCase().endsWith(ext));
  const [aff] = withExtension('.aff');
  const [dic] = withExtension('.dic');
  const lists = [...withExtension('.tsv'), ...withExtension('.csv')];
  const bounded = (file: DictionaryFile, limit: number) => {
    if (file.size > limit) {
      throw new PayloadTooLargeException(`${file.name} is too large. The limit is ${limit / MB} MB.`);
    }
  };
  if (named.length === 2 && aff && dic) {
    bounded(aff, WORD_FORM_FILE_LIMITS.aff);
    bounded(dic, WORD_FORM_FILE_LIMITS.dic);
    return { origin: 'hunspell', pairs: expandHunspell(aff, dic) };
  }
  if (named.length === 1 && lists.length === 1) {
    bounded(lists[0], WORD_FORM_FILE_LIMITS.list);
    return { origin: 'list', pairs: readFormList(lists[0]) };
  }
  throw ValidationFailed.field('files', WHICH_FILES);
}

/** Word forms (docs/word-forms.md): imports replace a language's set of one origin; lookups read them. */
@Injectable()
export class WordFormsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WordFormsService.name);
  private readonly generations: WordFormGenerations;
  private sweeping: Promise<unknown> = Promise.resolve();
  /** Books counted again after a change of their language's forms, one language after another. */
  private recounting: Promise<unknown> = Promise.resolve();
  private readonly recounted: Array<(lang: string) => Promise<void>> = [];
  private stopping = false;

  constructor(private readonly db: DataSource) {
    this.generations = new WordFormGenerations(db, MAX_FORMS);
  }

  /**
   * Leftovers of an import cut short (a crash) go in the background, not holding up the first request:
   * lookups never read them, and the sweep leaves imports under way and live sets alone (sweepGeneration).
   */
  onApplicationBootstrap(): void {
    this.sweeping = this.generations
      .sweep(() => this.stopping)
      .then((swept) => {
        if (swept) this.logger.log(`Removed ${swept} unfinished generation(s) of word forms.`);
      })
      .catch((error: unknown) => this.logger.warn(`The word forms' sweep failed: ${String(error)}`));
  }

  /** Resolves when the boot's sweep and the counts after a change have ended (the tests wait for them). */
  /** Runs `listener` with a language (its primary subtag) once its books' words were counted again. */
  afterRecount(listener: (lang: string) => Promise<void>): void {
    this.recounted.push(listener);
  }

  settled(): Promise<unknown> {
    return Promise.all([this.sweeping, this.recounting]);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await this.settled();
  }

  /**
   * The books of `lang` are counted again in the background: their words' keys follow the new forms
   * (docs/word-status.md, "Freshness of keys"). A restart stops it; the chapters not reached keep their
   * keys until the next change.
   */
  private recount(lang: string): void {
    this.recounting = this.recounting
      .then(() => recountLanguage(this.db, lang, () => this.stopping))
      .then(
        (chapters) => {
          if (chapters) this.logger.log(`Counted the words of ${chapters} chapter(s) in ${lang} again.`);
          return chapters;
        },
        (error: unknown) => {
          this.logger.warn(`Counting ${lang}'s words again failed: ${String(error)}`);
          // Some chapters may have their new keys already.
          return 1;
        },
      )
      .then(async (chapters) => {
        for (const listener of chapters ? this.recounted : []) await listener(primaryTag(lang));
      })
      .catch((error: unknown) => this.logger.warn(`After counting ${lang}'s words again: ${String(error)}`));
  }

  async import(dto: WordFormsImportDto): Promise<WordFormsImportAnswer> {
    const lang = canonicalTag(dto.lang.trim())!;
    const { origin, pairs } = sourceOf(dto.files);
    try {
      const counts = await this.generations.replace(lang, origin, pairs);
      this.recount(lang);
      return { data: { lang, origin, ...counts } };
    } catch (error) {
      if (error instanceof DictionaryFileError) throw ValidationFailed.field('files', error.message);
      throw error;
    }
  }

  async list(): Promise<WordFormSetsAnswer> {
    const rows = await sql<
      Array<{ lang: string; origin: string; forms: number; lemmas: number; updated_at: Date | string }>
    >(this.db, 'SELECT lang, origin, forms, lemmas, updated_at FROM word_form_sets ORDER BY lang, origin');
    return {
      data: rows.map((row) => ({
        lang: row.lang,
        origin: row.origin,
        forms: Number(row.forms),
        lemmas: Number(row.lemmas),
        updated_at: dateFromDb(row.updated_at).toISOString(),
      })),
    };
  }

  async remove(lang: string, origin: string): Promise<MessageAnswer> {
    const tag = canonicalTag(lang);
    const known = origin === 'hunspell' || origin === 'list';
    if (!tag || !known || !(await this.generations.remove(tag, origin))) {
      throw new NotFoundException('No such set of word forms.');
    }
    this.recount(tag);
    return { message: 'The word forms have been deleted.' };
  }
}
