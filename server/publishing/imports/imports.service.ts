import { ConflictException, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { espeakLanguages } from '../alignment/voices';
import { ffmpegVersion, FFMPEG_MISSING_MESSAGE } from './ffmpeg';
import { RuleFailed } from '../../platform/common/api-error';
import { BookImportService } from './book-import.service';
import { ChapterImportService } from './chapter-import.service';
import { STILL_ALIGNING } from './chapter-recording';
import { mismatchWarning } from './recording-alignment';
import { ImportLifecycle } from './import-lifecycle';
import type { MessageAnswer } from '../../platform/common/answers';
import type { ImportCommitAnswer, ImportPreviewAnswer } from './imports.dto';
import { readChapterManifest } from './manifests';
import type { StagedImport } from './staged-import.entity';

/** Staged imports of either kind: looking at one, committing or discarding it. */
@Injectable()
export class ImportsService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ImportsService.name);

  constructor(
    private readonly lifecycle: ImportLifecycle,
    private readonly chapters: ChapterImportService,
    private readonly books: BookImportService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Said once at boot, so that an administrator reading the log knows before trying a recording.
    const ffmpeg = await ffmpegVersion();
    if (ffmpeg) this.logger.log(`Splitting recordings with ${ffmpeg.split(' ').slice(0, 3).join(' ')}`);
    else this.logger.warn(`${FFMPEG_MISSING_MESSAGE}. Importing text with clips works without it.`);
    const voices = await espeakLanguages();
    if (voices.size)
      this.logger.log(`Aligning recordings to their text with eSpeak NG (${voices.size} languages)`);
    else
      this.logger.warn(
        'eSpeak NG was not found: recordings are cut at their pauses, not aligned to their text. Install it with: sudo apt-get install -y espeak-ng',
      );
  }

  find(id: string): Promise<StagedImport> {
    return this.lifecycle.find(id);
  }

  /** A look at an import: its preview, or how far a recording's alignment is (`status: 'aligning'`). */
  async get(id: string): Promise<ImportPreviewAnswer> {
    const staged = await this.lifecycle.find(id);
    return { data: staged.kind === 'book' ? this.books.preview(staged) : this.chapters.answer(staged) };
  }

  /**
   * Commits once: the import is taken (staged → committing), so a second commit sent at the same moment
   * finds it taken and adds nothing. A failed commit leaves it staged.
   */
  async commit(id: string, confirm = false): Promise<ImportCommitAnswer> {
    const found = await this.lifecycle.find(id);
    if (found.kind === 'book') this.books.assertReady(found);
    else this.assertChapterReady(found, confirm);
    const taken = await this.lifecycle.take(id);
    try {
      if (taken.kind === 'book') return await this.books.commit(taken);
      const { added, bookCode, chapterNo } = await this.chapters.commit(taken);
      return {
        message: `${added} ${added === 1 ? 'phrase has' : 'phrases have'} been added to the chapter.`,
        data: { added, book_code: bookCode, chapter_no: chapterNo },
      };
    } catch (error) {
      await this.lifecycle.release(taken);
      throw error;
    }
  }

  /**
   * A chapter import commits only when no row and nothing else has a problem (422 naming the rows), and a
   * recording unlike its text (most rows unsure) only when the author confirms it.
   */
  private assertChapterReady(staged: StagedImport, confirm: boolean): void {
    if (staged.status === 'aligning') throw new ConflictException(STILL_ALIGNING);
    const manifest = readChapterManifest(staged.manifest);
    const bad = manifest.rows.filter((row) => row.error).map((row) => row.n);
    if (bad.length)
      throw new RuleFailed(
        `${bad.length === 1 ? 'Row' : 'Rows'} ${bad.slice(0, 20).join(', ')}${bad.length > 20 ? '…' : ''} ${bad.length === 1 ? 'has a problem' : 'have problems'}: fix the files and import again.`,
      );
    if (manifest.errors.length) throw new RuleFailed(`The import has problems: ${manifest.errors.join(' ')}`);
    const mismatch = manifest.recording ? mismatchWarning(manifest.recording) : null;
    if (mismatch && !confirm) throw new RuleFailed(mismatch);
  }

  async discard(id: string): Promise<MessageAnswer> {
    await this.lifecycle.discard(id);
    return { message: 'The import has been discarded.' };
  }
}
