import { isForeignKeyViolation } from '../../platform/database/db-errors';
import { Injectable, NotFoundException } from '@nestjs/common';
import { RuleFailed, ValidationFailed, type FieldErrors } from '../../platform/common/api-error';
import { MediaService } from '../../platform/media/media.service';
import { CatalogueEvents } from '../../content/catalogue/catalogue-events';
import { rejected } from '../books/books.service';
import { ChaptersRepository } from '../../content/catalogue/repository/chapters.repository';
import { PhrasesRepository, type NewPhrase } from '../../content/catalogue/repository/phrases.repository';
import {
  PhraseTranslationsRepository,
  type Translations,
} from '../../content/catalogue/repository/phrase-translations.repository';
import { toTranslations } from './translations-field';
import type { Phrase } from '../../content/catalogue/entities/phrase.entity';
import { SignedLinks } from '../../platform/common/signed-links';
import { clipUrl } from '../../platform/media/media-urls';
import { MediaIndex } from '../../content/access/media-index';
import {
  toPhraseResponse,
  type CreatePhraseDto,
  type PhraseFields,
  type UpdatePhraseDto,
} from './phrases.dto';

@Injectable()
export class PhrasesService {
  constructor(
    private readonly phrases: PhrasesRepository,
    private readonly translations: PhraseTranslationsRepository,
    private readonly chapters: ChaptersRepository,
    private readonly media: MediaService,
    private readonly events: CatalogueEvents,
    private readonly links: SignedLinks,
    private readonly mediaIndex: MediaIndex,
  ) {}

  /** The admin screens play clips in <audio>, which sends no token: all but known free ones get signed URLs. */
  private readonly toResponse = (phrase: PhraseFields, translations: Translations) =>
    toPhraseResponse(
      phrase,
      clipUrl(this.links, phrase.audioPath, !this.mediaIndex.isKnownFree(phrase.audioPath)),
      translations,
    );

  /** A phrase's answer with its translations as stored. */
  private async answer(phrase: PhraseFields) {
    return this.toResponse(phrase, await this.translations.ofPhrase(phrase.id));
  }

  /** A chapter with its phrases in reading order, their translations, and its breadcrumbs: three queries. */
  async listForChapter(chapterId: number) {
    const chapter = await this.chapters.withBook(chapterId);
    if (!chapter) throw new NotFoundException('Chapter not found.');
    const phrases = await this.phrases.ofChapter(chapterId);
    const translations = await this.translations.ofPhrases(phrases.map((phrase) => phrase.id));
    return {
      data: {
        id: chapter.id,
        title: chapter.title,
        chapter_no: chapter.chapterNo,
        book_id: chapter.bookId,
        book_code: chapter.book.bookCode,
        book_title: chapter.book.title,
        phrases: phrases.map((phrase) => this.toResponse(phrase, translations.get(phrase.id) ?? {})),
      },
    };
  }

  async get(id: number) {
    return { data: await this.answer(await this.find(id)) };
  }

  /** Appends the phrase at the end of its chapter. */
  async create(dto: CreatePhraseDto) {
    const chapter = await this.chapters.withBook(dto.chapter_id);
    if (!chapter) throw ValidationFailed.field('chapter_id', 'The selected chapter does not exist.');
    const audio = await this.storeAudio(dto.line_audio.path);
    const translations = toTranslations(dto.translations ?? {});
    try {
      const [phrase] = await this.phrases.append(chapter.id, [
        {
          phrase: dto.phrase,
          dictionary: dto.dictionary,
          audioPath: audio.path,
          audioMs: audio.durationMs,
          translations,
        },
      ]);
      await this.events.changed(chapter.book.bookCode);
      return { message: 'The phrase has been added.', data: this.toResponse(phrase, translations) };
    } catch (error) {
      await this.media.discard([audio.path]);
      if (isForeignKeyViolation(error)) {
        throw ValidationFailed.field('chapter_id', 'The selected chapter does not exist.');
      }
      throw error;
    }
  }

  /** Like a book's edit: the row is re-read and updated in one transaction, after the new audio is stored. */
  async update(id: number, dto: UpdatePhraseDto) {
    await this.find(id);
    const audio = dto.line_audio ? await this.storeAudio(dto.line_audio.path) : null;
    const changes: Partial<NewPhrase> = { phrase: dto.phrase, dictionary: dto.dictionary };
    if (audio) Object.assign(changes, { audioPath: audio.path, audioMs: audio.durationMs });
    let replaced: string | null = null;
    try {
      const translations = dto.translations && toTranslations(dto.translations);
      const previous = await this.phrases.update(id, changes, translations);
      if (!previous) throw new NotFoundException('Phrase not found.');
      replaced = audio ? previous.audioPath : null;
    } catch (error) {
      await this.media.discard([audio?.path]);
      // Its translations' foreign key: the phrase was deleted while this edit was being written.
      if (isForeignKeyViolation(error)) throw new NotFoundException('Phrase not found.');
      throw error;
    }
    await this.media.remove([replaced]);
    const phrase = await this.find(id);
    await this.changed(phrase.chapterId);
    return { message: 'The phrase has been updated.', data: await this.answer(phrase) };
  }

  /** Removes the phrase and its audio, and closes the gap in the reading order. */
  async remove(id: number) {
    const phrase = await this.find(id);
    await this.media.remove([await this.phrases.remove(phrase)]);
    await this.changed(phrase.chapterId);
    return { message: 'The phrase has been deleted.' };
  }

  /** Sets the reading order; the ids must be exactly the chapter's phrases, each once. */
  async reorder(chapterId: number, ids: number[]) {
    if (!(await this.chapters.exists(chapterId))) throw new NotFoundException('Chapter not found.');
    if (!(await this.phrases.reorder(chapterId, ids)))
      throw new RuleFailed("The new order must list each of the chapter's phrases exactly once.");
    await this.changed(chapterId);
    return this.listForChapter(chapterId).then(({ data }) => ({
      message: 'The phrases have been reordered.',
      data,
    }));
  }

  private async find(id: number): Promise<Phrase> {
    const phrase = await this.phrases.byId(id);
    if (!phrase) throw new NotFoundException('Phrase not found.');
    return phrase;
  }

  private async storeAudio(path: string) {
    const errors: FieldErrors = {};
    const audio = await this.media
      .storeAudio(path, 'lines')
      .catch((error: unknown) => rejected(error, 'line_audio', errors));
    if (!audio) throw new ValidationFailed(errors);
    return audio;
  }

  private async changed(chapterId: number): Promise<void> {
    const code = await this.chapters.bookCodeOf(chapterId);
    if (code) await this.events.changed(code);
  }
}
