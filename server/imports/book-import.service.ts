import { Injectable, PayloadTooLargeException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { slugify, uniqueCode } from '../books/book-code';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import { BooksRepository } from '../catalogue/repository/books.repository';
import { RuleFailed, ValidationFailed } from '../common/api-error';
import { isUniqueViolation } from '../database/db-errors';
import { MediaRejectedError, MediaService, type AudioKind, type StoredAudio } from '../media/media.service';
import type { User } from '../users/user.entity';
import { readBookArchive } from './book-import-reader';
import { isEpub, readEpub } from './epub-reader';
import {
  BOOK_ZIP_LIMITS,
  type BookImportAnswer,
  type BookImportDto,
  type BookImportResponse,
} from './book-imports.dto';
import type { ImportCommitAnswer } from './imports.dto';
import { ImportLifecycle, type TakenImport } from './import-lifecycle';
import { ImportStage, STAGE_HOURS } from './import-stage';
import { bookProblems, chapterProblems, readBookManifest, readyBook, type ReadyBook } from './manifests';
import type { StagedImport } from './staged-import.entity';
import { extractZip, ZipRejected } from './zip-entries';

/** A book code taken by another commit at the same moment is chosen again, this many times. */
const CODE_ATTEMPTS = 4;

/**
 * Moving a whole book between installations: a zip of the export's layout (book-archive.ts) is staged
 * and previewed; the commit stores every file through the media checks, then creates the book, its
 * chapters and phrases in one transaction, or nothing.
 */
@Injectable()
export class BookImportService {
  constructor(
    private readonly lifecycle: ImportLifecycle,
    private readonly db: DataSource,
    private readonly books: BooksRepository,
    private readonly stage: ImportStage,
    private readonly media: MediaService,
    private readonly events: CatalogueEvents,
  ) {}

  async stageBook(user: User, dto: BookImportDto): Promise<BookImportAnswer> {
    const id = randomUUID();
    const dir = await this.stage.create(id);
    try {
      let entries;
      try {
        entries = await extractZip(dto.zip.path, dir, BOOK_ZIP_LIMITS);
      } catch (error) {
        if (!(error instanceof ZipRejected)) throw error;
        if (error.status === 413) throw new PayloadTooLargeException(error.message);
        // The extraction speaks of the chapter import's clips; here the zip is the whole book.
        throw ValidationFailed.field('zip', error.message.replace(/^The clips file/, 'The file'));
      }
      const probe = (file: string) => this.media.probeAudio(file);
      // A read-along EPUB is told from our own zip by content (docs/import.md, "Read-along EPUBs").
      const manifest = (await isEpub(entries))
        ? await readEpub(entries, dir, probe)
        : await readBookArchive(entries, dir, probe);
      // Stored before the row is written: a row never points at files that are not there yet.
      await this.stage.publish(id);
      const staged = await this.lifecycle.stage({
        id,
        kind: 'book',
        chapterId: null,
        mode: 'append',
        createdBy: user.id,
        manifest,
      });
      return { data: this.preview(staged) };
    } catch (error) {
      await this.stage.remove(id);
      throw error;
    }
  }

  /** The answer of the staging call and of a later look at the same import. */
  preview(staged: StagedImport): BookImportResponse {
    const manifest = readBookManifest(staged.manifest);
    return {
      import_id: staged.id,
      kind: 'book',
      book: {
        book_code: manifest.code,
        ...manifest.book,
        book_image: manifest.cover?.name ?? null,
        sample_audio: manifest.sample?.name ?? null,
        sample_duration_ms: manifest.sample?.duration_ms ?? null,
        errors: manifest.fieldErrors,
      },
      chapters: manifest.chapters.map((chapter) => ({
        folder: chapter.folder,
        chapter_no: chapter.chapter_no,
        title: chapter.title,
        rows: chapter.rows.length,
        duration_ms: chapter.rows.reduce((sum, row) => sum + (row.duration_ms ?? 0), 0),
        errors: chapterProblems(chapter),
      })),
      errors: bookProblems(manifest),
      expires_at: new Date(staged.createdAt.getTime() + STAGE_HOURS * 3_600_000).toISOString(),
    };
  }

  /** Refuses the commit of a book with any problem left, naming the first few (422). */
  assertReady(staged: StagedImport): void {
    const found = bookProblems(readBookManifest(staged.manifest));
    if (found.length)
      throw new RuleFailed(
        `The book has ${found.length === 1 ? 'a problem' : `${found.length} problems`}: ${found.slice(0, 3).join(' ')}${found.length > 3 ? ' …' : ''} Fix the zip and import it again.`,
      );
  }

  /**
   * Stores the cover, the sample and every clip through the same checks as any upload, then creates the
   * book with its chapters and phrases in one transaction. If anything fails, the stored files are
   * removed again and no row is left.
   */
  async commit(staged: TakenImport): Promise<ImportCommitAnswer> {
    // Ready by now (assertReady): readyBook checks what the commit needs rather than assuming it.
    const book = readyBook(readBookManifest(staged.manifest));
    const stored: string[] = [];
    let bookCode = '';
    try {
      const cover = await this.storeCover(staged.id, book.cover.file);
      stored.push(cover);
      const sample = await this.storeAudio(staged.id, book.sample.file, 'samples', 'sample_audio');
      stored.push(sample.path);
      const clips: StoredAudio[][] = [];
      for (const chapter of book.chapters) {
        const audio: StoredAudio[] = [];
        for (const row of chapter.rows) {
          audio.push(await this.storeAudio(staged.id, row.file, 'lines', 'zip'));
          stored.push(audio[audio.length - 1].path);
        }
        clips.push(audio);
      }
      for (let attempt = 1; ; attempt++) {
        try {
          bookCode = await this.db.transaction((tx) => this.create(tx, staged, book, cover, sample, clips));
          break;
        } catch (error) {
          // Another book took the code between the look and the insert: choose again.
          if (!isUniqueViolation(error) || attempt >= CODE_ATTEMPTS) throw error;
        }
      }
    } catch (error) {
      await this.media.discard(stored);
      throw error;
    }
    await this.stage.remove(staged.id);
    await this.events.changed(bookCode);
    return {
      message: `The book "${book.fields.title}" has been imported.`,
      data: { book_code: bookCode },
    };
  }

  private async create(
    tx: EntityManager,
    staged: TakenImport,
    book: ReadyBook,
    cover: string,
    sample: StoredAudio,
    clips: StoredAudio[][],
  ): Promise<string> {
    const { fields } = book;
    const bookCode = await this.freeCode(tx, book);
    await this.books.createWhole(
      {
        bookCode,
        title: fields.title,
        author: fields.author,
        narratedBy: fields.narrated_by,
        description: fields.description,
        difficulty: fields.difficulty,
        hours: fields.hours,
        minutes: fields.minutes,
        sampleText: fields.sample_text,
        language: fields.language,
        cefr: fields.cefr,
        coverPath: cover,
        sampleAudioPath: sample.path,
        sampleAudioMs: sample.durationMs,
      },
      book.chapters.map((chapter, c) => ({
        title: chapter.title,
        chapterNo: chapter.chapter_no,
        phrases: chapter.rows.map((line, i) => ({
          phrase: line.phrase,
          dictionary: line.dictionary,
          translations: line.translations,
          audioPath: clips[c][i].path,
          audioMs: clips[c][i].durationMs,
        })),
      })),
      tx,
    );
    // Only if this commit still holds the import: one that took it over makes this one roll back.
    await this.lifecycle.finish(staged, tx);
    return bookCode;
  }

  /** The exported book's code when it is free here, else a new slug of the title, as a new book gets. */
  private async freeCode(tx: EntityManager, book: ReadyBook): Promise<string> {
    if (book.code && !(await this.books.hasCode(book.code, tx))) return book.code;
    const { title } = book.fields;
    return uniqueCode(title, new Set(await this.books.codes(slugify(title), tx)));
  }

  /** A staged file is copied into the media temp folder first: the stage stays whole for a retry. */
  private async copyIn(importId: string, file: string): Promise<string> {
    const temp = this.media.tempPath();
    await this.stage.copyTo(importId, file, temp);
    return temp;
  }

  private async storeCover(importId: string, file: string): Promise<string> {
    try {
      return await this.media.storeCover(await this.copyIn(importId, file));
    } catch (error) {
      if (error instanceof MediaRejectedError) throw ValidationFailed.field('book_image', error.message);
      throw error;
    }
  }

  private async storeAudio(importId: string, file: string, kind: AudioKind, field: string) {
    try {
      // Hundreds of clips in one request: their decoded lengths are measured after the commit (MeasureAhead).
      return await this.media.storeAudio(await this.copyIn(importId, file), kind, 'later');
    } catch (error) {
      if (error instanceof MediaRejectedError) throw ValidationFailed.field(field, error.message);
      throw error;
    }
  }
}
