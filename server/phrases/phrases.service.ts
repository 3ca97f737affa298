import { isForeignKeyViolation } from '../database/db-errors';
import { lockChapter } from '../database/locks';
import { sql } from '../database/sql';
import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { RuleFailed, ValidationFailed, type FieldErrors } from '../common/api-error';
import { MediaService } from '../media/media.service';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import { rejected } from '../books/books.service';
import { Chapter } from '../chapters/chapter.entity';
import { Phrase } from './phrase.entity';
import { ClipUrls } from '../reading/clip-urls';
import { MediaIndex } from '../reading/media-index';
import { toPhraseResponse, type CreatePhraseDto, type UpdatePhraseDto } from './phrases.dto';

@Injectable()
export class PhrasesService {
  constructor(
    @InjectRepository(Phrase) private readonly phrases: Repository<Phrase>,
    @InjectRepository(Chapter) private readonly chapters: Repository<Chapter>,
    private readonly db: DataSource,
    private readonly media: MediaService,
    private readonly events: CatalogueEvents,
    private readonly clipUrls: ClipUrls,
    private readonly mediaIndex: MediaIndex,
  ) {}

  /** The admin screens play clips in <audio>, which sends no token: all but known free ones get signed URLs. */
  private readonly toResponse = (phrase: Phrase) =>
    toPhraseResponse(
      phrase,
      this.clipUrls.url(phrase.audioPath, !this.mediaIndex.isKnownFree(phrase.audioPath)),
    );

  /** A chapter with its phrases in reading order, and what its breadcrumbs need, in two queries. */
  async listForChapter(chapterId: number) {
    const chapter = await this.chapters.findOne({ where: { id: chapterId }, relations: { book: true } });
    if (!chapter) throw new NotFoundException('Chapter not found.');
    const phrases = await this.phrases.find({ where: { chapterId }, order: { position: 'ASC', id: 'ASC' } });
    return {
      data: {
        id: chapter.id,
        title: chapter.title,
        chapter_no: chapter.chapterNo,
        book_id: chapter.bookId,
        book_code: chapter.book!.bookCode,
        book_title: chapter.book!.title,
        phrases: phrases.map(this.toResponse),
      },
    };
  }

  async get(id: number) {
    return { data: this.toResponse(await this.find(id)) };
  }

  /** Appends the phrase at the end of its chapter. */
  async create(dto: CreatePhraseDto) {
    const chapter = await this.chapters.findOne({ where: { id: dto.chapter_id }, relations: { book: true } });
    if (!chapter) throw ValidationFailed.field('chapter_id', 'The selected chapter does not exist.');
    const audio = await this.storeAudio(dto.line_audio.path);
    try {
      const phrase = await this.db.transaction(async (tx) => {
        await lockChapter(tx, chapter.id);
        const [{ last }] = (await sql(
          tx,
          `SELECT COALESCE(MAX(position), 0) AS last FROM phrases WHERE chapter_id = ?`,
          [chapter.id],
        )) as Array<{ last: number }>;
        return tx.getRepository(Phrase).save({
          chapterId: chapter.id,
          position: last + 1,
          phrase: dto.phrase,
          dictionary: dto.dictionary,
          audioPath: audio.path,
          audioMs: audio.durationMs,
        });
      });
      await this.events.changed(chapter.book!.bookCode);
      return { message: 'The phrase has been added.', data: this.toResponse(phrase) };
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
    const changes: Partial<Phrase> = { phrase: dto.phrase, dictionary: dto.dictionary };
    if (audio) Object.assign(changes, { audioPath: audio.path, audioMs: audio.durationMs });
    let replaced: string | null = null;
    try {
      await this.db.transaction(async (tx) => {
        const current = await tx.findOneBy(Phrase, { id });
        if (!current) throw new NotFoundException('Phrase not found.');
        replaced = audio ? current.audioPath : null;
        await tx.update(Phrase, { id }, changes);
      });
    } catch (error) {
      await this.media.discard([audio?.path]);
      throw error;
    }
    await this.media.remove([replaced]);
    const phrase = await this.find(id);
    await this.changed(phrase.chapterId);
    return { message: 'The phrase has been updated.', data: this.toResponse(phrase) };
  }

  /** Removes the phrase and its audio, and closes the gap in the reading order. */
  async remove(id: number) {
    const phrase = await this.find(id);
    await this.db.transaction(async (tx) => {
      await lockChapter(tx, phrase.chapterId);
      // Re-read under the lock: a reorder may have moved it since.
      const current = await tx.findOneBy(Phrase, { id });
      if (!current) return;
      await tx.delete(Phrase, { id });
      await sql(tx, `UPDATE phrases SET position = position - 1 WHERE chapter_id = ? AND position > ?`, [
        current.chapterId,
        current.position,
      ]);
    });
    await this.media.remove([phrase.audioPath]);
    await this.changed(phrase.chapterId);
    return { message: 'The phrase has been deleted.' };
  }

  /** Sets the reading order; the ids must be exactly the chapter's phrases, each once. */
  async reorder(chapterId: number, ids: number[]) {
    if (!(await this.chapters.existsBy({ id: chapterId }))) throw new NotFoundException('Chapter not found.');
    await this.db.transaction(async (tx) => {
      await lockChapter(tx, chapterId);
      const current = (await sql(tx, `SELECT id FROM phrases WHERE chapter_id = ?`, [chapterId])) as Array<{
        id: number;
      }>;
      const expected = new Set(current.map((row) => row.id));
      if (
        ids.length !== expected.size ||
        new Set(ids).size !== ids.length ||
        !ids.every((id) => expected.has(id))
      ) {
        throw new RuleFailed("The new order must list each of the chapter's phrases exactly once.");
      }
      for (const [index, id] of ids.entries()) {
        await sql(tx, `UPDATE phrases SET position = ? WHERE id = ?`, [index + 1, id]);
      }
    });
    await this.changed(chapterId);
    return this.listForChapter(chapterId).then(({ data }) => ({
      message: 'The phrases have been reordered.',
      data,
    }));
  }

  private async find(id: number): Promise<Phrase> {
    const phrase = await this.phrases.findOneBy({ id });
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
    const rows = (await sql(
      this.db,
      `SELECT b.book_code AS code FROM books b JOIN chapters c ON c.book_id = b.id WHERE c.id = ?`,
      [chapterId],
    )) as Array<{ code: string }>;
    if (rows[0]) await this.events.changed(rows[0].code);
  }
}
