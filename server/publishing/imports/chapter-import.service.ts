import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
import { DataSource } from 'typeorm';
import { CatalogueEvents } from '../../content/catalogue/catalogue-events';
import { ChaptersRepository } from '../../content/catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../../content/catalogue/repository/phrases.repository';
import { RuleFailed, ValidationFailed } from '../../platform/common/api-error';
import { InFlight } from '../../platform/common/in-flight';
import { SignedLinks } from '../../platform/common/signed-links';
import type { UploadedFile } from '../../platform/common/uploaded-file.validator';
import { MediaRejectedError, MediaService, type StoredAudio } from '../../platform/media/media.service';
import type { AudioType } from '../../platform/media/sniff';
import type { User } from '../../accounts/users/user.entity';
import { AlignmentJobs } from './alignment-jobs';
import { chapterImportAnswer, chapterImportPreview } from './chapter-import-preview';
import { cutRecording, ffmpegRefusal, stageRecording, STILL_ALIGNING } from './chapter-recording';
import { matchClips } from './clip-matching';
import { probeClips } from './clip-probes';
import { gatherClips } from './clip-uploads';
import { ImportLifecycle, type TakenImport } from './import-lifecycle';
import { ImportStage } from './import-stage';
import {
  MAX_CLIPS,
  type BoundariesDto,
  type ChapterImportAnswer,
  type ChapterImportDto,
  type ChapterImportResponse,
  type ImportAligning,
  type RecordingPeaksAnswer,
} from './imports.dto';
import { readChapterManifest, type ChapterManifest, type ChapterRow } from './manifests';
import { checkedCuts, recordingRows, requireFfmpeg, textEdges } from './recording-import';
import { computePeaks, readPeaks, type RecordingPeaks } from './recording-peaks';
import type { StagedImport } from './staged-import.entity';
import { decodeText, parseImportText, TextRejected, TooManyRows, type ParsedText } from './text-formats';

// Kept where the controllers and ImportsService import them from since the recording and the preview
// moved to files of their own.

/** The name of a recording's peaks beside it in the import store. */
const PEAKS_FILE = 'peaks.json';

/**
 * Importing a chapter in one step: a text file plus its clips (many files, or one zip) is staged and
 * previewed row by row; nothing reaches the chapter until the commit, which adds every row in one
 * transaction or none.
 */
@Injectable()
export class ChapterImportService {
  /** Peaks being computed on this instance, by import: a second request waits for the first. */
  private readonly computing = new InFlight<RecordingPeaks>();

  constructor(
    private readonly lifecycle: ImportLifecycle,
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
    private readonly db: DataSource,
    private readonly stage: ImportStage,
    private readonly media: MediaService,
    private readonly links: SignedLinks,
    private readonly events: CatalogueEvents,
    private readonly jobs: AlignmentJobs,
  ) {}

  async stageChapter(
    user: User,
    chapterId: number,
    dto: ChapterImportDto,
  ): Promise<{ data: ChapterImportResponse | ImportAligning }> {
    const chapter = await this.chapters.withBook(chapterId);
    if (!chapter) throw new NotFoundException('Chapter not found.');
    if (dto.recording && dto.clips?.length)
      throw ValidationFailed.field(
        'recording',
        'Send either the clips or one recording of the chapter, not both.',
      );
    if (dto.recording) await requireFfmpeg();
    const id = randomUUID();
    await this.stage.create(id);
    try {
      const bytes = await readFile(dto.text.path);
      let text;
      try {
        text = parseImportText(bytes, MAX_CLIPS);
      } catch (error) {
        if (error instanceof TooManyRows)
          throw ValidationFailed.field(
            'text',
            `The text has ${error.count} phrases; the most is ${MAX_CLIPS}.`,
          );
        if (error instanceof TextRejected) throw ValidationFailed.field('text', error.message);
        throw error;
      }
      // A recording's boundaries are checked again in the preview, which clears its problems; the text's
      // own (a malformed translation column) would need a new upload anyway, so they are a 422 at once.
      if (dto.recording && text.problems.length)
        throw ValidationFailed.field('text', text.problems.join(' '));
      const { manifest, job } = dto.recording
        ? await stageRecording(
            { media: this.media, stage: this.stage, jobs: this.jobs },
            id,
            dto.recording,
            recordingRows(text, decodeText(bytes)),
            text.format,
            chapter.book.language,
          )
        : { manifest: await this.stageClips(id, text, dto.clips ?? []), job: false };
      // Stored before the row is written: a row never points at files that are not there yet.
      await this.stage.publish(id);
      const found = {
        id,
        kind: 'chapter' as const,
        chapterId: chapter.id,
        mode: dto.mode ?? 'append',
        createdBy: user.id,
        manifest,
      };
      const staged = job
        ? await this.lifecycle.stage(found, this.jobs.newJob(manifest.recording!.duration_ms))
        : await this.lifecycle.stage(found);
      if (job) this.jobs.kick();
      return { data: this.answer(staged) };
    } catch (error) {
      await this.stage.remove(id);
      throw error;
    }
  }

  private async stageClips(id: string, text: ParsedText, files: UploadedFile[]): Promise<ChapterManifest> {
    const matched = matchClips(text, await gatherClips(this.stage, id, files));
    const rows: ChapterRow[] = matched.rows.map((row) => ({ ...row, duration_ms: null }));
    await probeClips(rows, (file) => this.media.probeAudio(this.stage.file(id, file)));
    return { format: text.format, rows, errors: matched.errors };
  }

  /** Moves a recording's boundaries (the preview's 50 ms steps, typed times) and, aligned, its start and end. */
  async setBoundaries(staged: StagedImport, dto: BoundariesDto): Promise<ChapterImportAnswer> {
    if (staged.status === 'aligning') throw new ConflictException(STILL_ALIGNING);
    const manifest = readChapterManifest(staged.manifest);
    if (!manifest.recording) throw new RuleFailed('Only an import of one recording has boundaries to move.');
    const recording = manifest.recording;
    if (dto.end_ms !== undefined && dto.end_ms > recording.duration_ms)
      throw ValidationFailed.field(
        'end_ms',
        `The text cannot end (${dto.end_ms} ms) after the recording does (${recording.duration_ms} ms).`,
      );
    const edges = textEdges(
      dto.start_ms ?? recording.start_ms,
      dto.end_ms ?? recording.end_ms,
      recording.duration_ms,
    );
    const moved = dto.end_ms !== undefined && dto.start_ms === undefined ? 'end_ms' : 'start_ms';
    recording.cuts = checkedCuts(dto.cuts, { ...recording, ...edges }, manifest.rows.length, moved);
    Object.assign(recording, edges);
    manifest.notice = null;
    return { data: this.preview(await this.lifecycle.updateManifest(staged, manifest)) };
  }

  /** A look at a chapter import: its preview, or how far its alignment is (the controller answers 202). */
  answer(staged: StagedImport): ChapterImportResponse | ImportAligning {
    return chapterImportAnswer(this.links, staged);
  }

  /** The answer of the staging call and of a later look at the same import. */
  preview(staged: StagedImport): ChapterImportResponse {
    return chapterImportPreview(this.links, staged);
  }

  /**
   * The recording's waveform (recording-peaks.ts): computed with ffmpeg on the first request and kept
   * beside the recording in the import store, so every later request, on any instance, only reads it.
   */
  async peaks(staged: StagedImport): Promise<RecordingPeaksAnswer> {
    const recording = readChapterManifest(staged.manifest).recording;
    if (!recording) throw new NotFoundException('This import has no recording.');
    const stored = readPeaks(await this.stage.readJson(staged.id, PEAKS_FILE), recording.duration_ms);
    if (stored) return { data: stored };
    return {
      data: await this.computing.run(staged.id, () =>
        this.computePeaks(staged.id, recording.file, recording.duration_ms),
      ),
    };
  }

  private async computePeaks(id: string, file: string, durationMs: number): Promise<RecordingPeaks> {
    await requireFfmpeg();
    const source = await this.stage.localCopy(id, file);
    let peaks: RecordingPeaks;
    try {
      peaks = await computePeaks(source.path, durationMs);
    } catch (error) {
      throw ffmpegRefusal(error, 'ffmpeg cannot read this recording: it may be damaged.');
    } finally {
      await source.release();
    }
    await this.stage.writeJson(id, PEAKS_FILE, peaks);
    return peaks;
  }

  /** The stored key of row `n`'s staged file, for the preview's player. */
  clipFile(staged: StagedImport, n: number): { key: string; type: AudioType } | null {
    const manifest = readChapterManifest(staged.manifest);
    // 0 is the recording itself, which the preview plays segment by segment.
    if (n === 0 && manifest.recording)
      return { key: this.stage.key(staged.id, manifest.recording.file), type: manifest.recording.type };
    const row = manifest.rows.find((r) => r.n === n);
    return row?.file && row.type && !row.error
      ? { key: this.stage.key(staged.id, row.file), type: row.type }
      : null;
  }

  /**
   * Adds every row to the chapter (or, in replace mode, puts them in place of its phrases) in one
   * transaction. The clips are stored first, through the same checks as any upload; if anything fails,
   * they are removed again and the chapter is as it was.
   */
  async commit(staged: TakenImport): Promise<{ added: number; bookCode: string; chapterNo: number }> {
    const manifest = readChapterManifest(staged.manifest);
    const stored: StoredAudio[] = [];
    let replaced: string[] = [];
    let bookCode = '';
    let chapterNo = 0;
    const cut = manifest.recording
      ? await cutRecording({ media: this.media, stage: this.stage }, staged.id, manifest)
      : null;
    try {
      for (const [i, row] of manifest.rows.entries()) {
        const temp = this.media.tempPath();
        // A staged clip is copied: the stage stays whole for a retry. Cut segments are made per commit.
        // Without a recording, each row names its clip (readChapterManifest checks it).
        if (cut) await rename(cut.files[i], temp);
        else await this.stage.copyTo(staged.id, row.file!, temp);
        // Hundreds of clips in one request: decoded lengths are measured after the commit (MeasureAhead).
        stored.push(await this.media.storeAudio(temp, 'lines', 'later'));
      }
      await this.db.transaction(async (tx) => {
        // Two imports, or an import and a phrase added by hand, must not read the same last position.
        const chapter = await this.chapters.lockWithBook(staged.chapterId!, tx);
        if (!chapter) throw new NotFoundException('The chapter of this import no longer exists.');
        bookCode = chapter.book.bookCode;
        chapterNo = chapter.chapterNo;
        if (staged.mode === 'replace') replaced = await this.phrases.removeAllOf(chapter.id, tx);
        await this.phrases.append(
          chapter.id,
          manifest.rows.map((row, i) => ({
            phrase: row.phrase,
            dictionary: row.dictionary,
            audioPath: stored[i].path,
            audioMs: stored[i].durationMs,
            translations: row.translations,
          })),
          tx,
        );
        // Only if this commit still holds the import: one that took it over makes this one roll back.
        await this.lifecycle.finish(staged, tx);
      });
    } catch (error) {
      await this.media.discard(stored.map((audio) => audio.path));
      if (error instanceof MediaRejectedError) throw ValidationFailed.field('clips', error.message);
      throw error;
    } finally {
      await cut?.cleanup();
    }
    await this.media.remove(replaced);
    await this.stage.remove(staged.id);
    await this.events.changed(bookCode);
    return { added: manifest.rows.length, bookCode, chapterNo };
  }
}
