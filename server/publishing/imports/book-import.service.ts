import { Injectable, PayloadTooLargeException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { CatalogueEvents } from '../../content/catalogue/catalogue-events';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { RuleFailed, ValidationFailed } from '../../platform/common/api-error';
import { isUniqueViolation } from '../../platform/database/db-errors';
import { MediaService } from '../../platform/media/media.service';
import type { User } from '../../accounts/users/user.entity';
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
import { createWholeBook, storedPaths, storeBookFiles, type StoredBookFiles } from './whole-book';
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
    // A staged file is copied: the stage stays whole for a retry.
    const files = await storeBookFiles(this.media, book, (file, temp) =>
      this.stage.copyTo(staged.id, file, temp),
    );
    let bookCode = '';
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          bookCode = await this.db.transaction((tx) => this.create(tx, staged, book, files));
          break;
        } catch (error) {
          // Another book took the code between the look and the insert: choose again.
          if (!isUniqueViolation(error) || attempt >= CODE_ATTEMPTS) throw error;
        }
      }
    } catch (error) {
      await this.media.discard(storedPaths(files));
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
    files: StoredBookFiles,
  ): Promise<string> {
    const bookCode = await createWholeBook(this.books, tx, book, files);
    // Only if this commit still holds the import: one that took it over makes this one roll back.
    await this.lifecycle.finish(staged, tx);
    return bookCode;
  }
}
