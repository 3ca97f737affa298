import {
  ConflictException,
  Injectable,
  Logger,
  NotFoundException,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ffmpegVersion, FFMPEG_MISSING_MESSAGE } from './ffmpeg';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import { RuleFailed } from '../common/api-error';
import { Clock } from '../common/clock';
import { BookImportService } from './book-import.service';
import { ChapterImportService, type ChapterManifest } from './chapter-import.service';
import { ImportStage, STAGE_HOURS } from './import-stage';
import type { MessageAnswer } from '../common/answers';
import type { ImportCommitAnswer, ImportPreviewAnswer } from './imports.dto';
import { StagedImport } from './staged-import.entity';

const HOUR = 3_600_000;
/** A commit that has said nothing for this long died with its process: the import is staged again. */
const STUCK_COMMIT_MS = 30 * 60_000;
const NOT_FOUND =
  'Import not found. It may have been committed or discarded, or have expired after 24 hours.';

/** Staged imports: looking at one, committing or discarding it, and sweeping the expired ones. */
@Injectable()
export class ImportsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ImportsService.name);
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    @InjectRepository(StagedImport) private readonly imports: Repository<StagedImport>,
    private readonly chapters: ChapterImportService,
    private readonly books: BookImportService,
    private readonly stage: ImportStage,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Said once at boot, so that an administrator reading the log knows before trying a recording.
    const ffmpeg = await ffmpegVersion();
    if (ffmpeg) this.logger.log(`Splitting recordings with ${ffmpeg.split(' ').slice(0, 3).join(' ')}`);
    else this.logger.warn(`${FFMPEG_MISSING_MESSAGE}. Importing text with clips works without it.`);
    await this.sweep();
    this.timer = setInterval(() => void this.sweep().catch((e) => this.logger.error(e)), HOUR);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async find(id: string): Promise<StagedImport> {
    const staged = /^[0-9a-f-]{36}$/.test(id) ? await this.imports.findOneBy({ id }) : null;
    if (!staged) throw new NotFoundException(NOT_FOUND);
    return staged;
  }

  async get(id: string): Promise<ImportPreviewAnswer> {
    const staged = await this.find(id);
    return { data: staged.kind === 'book' ? this.books.preview(staged) : this.chapters.preview(staged) };
  }

  /**
   * Commits once: the import is taken (staged → committing) by a conditional update, so a second commit
   * sent at the same moment finds it taken and adds nothing. A failed commit leaves it staged.
   */
  async commit(id: string): Promise<ImportCommitAnswer> {
    const found = await this.find(id);
    if (found.kind === 'book') this.books.assertReady(found);
    else this.assertChapterReady(found);
    const now = this.clock.now();
    // Staged, or left 'committing' by a process that died (its transaction was rolled back).
    const { affected } = await this.imports
      .createQueryBuilder()
      .update()
      .set({ status: 'committing', updatedAt: now })
      .where("id = :id AND (status = 'staged' OR (status = 'committing' AND updated_at < :stuck))", {
        id,
        stuck: new Date(now.getTime() - STUCK_COMMIT_MS),
      })
      .execute();
    if (!affected) throw new ConflictException('This import is already being committed.');
    // Read again now that it is ours: boundaries moved since the first read are the ones to cut.
    const staged = await this.find(id);
    try {
      if (staged.kind === 'book') return await this.books.commit(staged);
      const { added } = await this.chapters.commit(staged);
      return {
        message: `${added} ${added === 1 ? 'phrase has' : 'phrases have'} been added to the chapter.`,
        data: { added },
      };
    } catch (error) {
      // Only if this commit still holds it: one that took it over meanwhile keeps it.
      await this.imports.update(
        { id, status: 'committing', updatedAt: staged.updatedAt },
        { status: 'staged', updatedAt: this.clock.now() },
      );
      throw error;
    }
  }

  /** A chapter import commits only when no row and nothing else has a problem (422 naming the rows). */
  private assertChapterReady(staged: StagedImport): void {
    const manifest = JSON.parse(staged.manifest) as ChapterManifest;
    const bad = manifest.rows.filter((row) => row.error).map((row) => row.n);
    if (bad.length)
      throw new RuleFailed(
        `${bad.length === 1 ? 'Row' : 'Rows'} ${bad.slice(0, 20).join(', ')}${bad.length > 20 ? '…' : ''} ${bad.length === 1 ? 'has a problem' : 'have problems'}: fix the files and import again.`,
      );
    if (manifest.errors.length) throw new RuleFailed(`The import has problems: ${manifest.errors.join(' ')}`);
  }

  async discard(id: string): Promise<MessageAnswer> {
    const staged = await this.find(id);
    const { affected } = await this.imports.delete({ id: staged.id, status: 'staged' });
    if (!affected)
      throw new ConflictException('This import is being committed and can no longer be discarded.');
    await this.stage.remove(staged.id);
    return { message: 'The import has been discarded.' };
  }

  /**
   * Removes imports staged more than 24 hours ago, with their files, and folders that no import row
   * owns (an upload cut short by a crash) once they are as old. Nothing younger is touched. A commit
   * stuck in 'committing' (its process died) becomes staged again: its transaction was rolled back.
   */
  async sweep(): Promise<void> {
    const now = this.clock.now().getTime();
    const expired = new Date(now - STAGE_HOURS * HOUR);
    await this.imports.update(
      { status: 'committing', updatedAt: LessThan(new Date(now - STUCK_COMMIT_MS)) },
      { status: 'staged' },
    );
    const old = await this.imports.find({ select: { id: true }, where: { createdAt: LessThan(expired) } });
    for (const { id } of old) {
      // An import being committed keeps its files until the commit ends.
      const { affected } = await this.imports.delete({ id, status: 'staged' });
      if (affected) await this.stage.remove(id);
    }
    const live = await this.imports.find({ select: { id: true } });
    const removed = await this.stage.sweep(expired, new Set(live.map((row) => row.id)));
    if (old.length || removed) this.logger.log(`Swept ${old.length + removed} expired import(s)`);
  }
}
