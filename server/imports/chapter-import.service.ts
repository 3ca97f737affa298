import {
  ConflictException,
  Injectable,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { DataSource } from 'typeorm';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import { ChaptersRepository } from '../catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../catalogue/repository/phrases.repository';
import { RuleFailed, ValidationFailed } from '../common/api-error';
import type { UploadedFile } from '../common/uploaded-file.validator';
import { MediaRejectedError, MediaService, type StoredAudio } from '../media/media.service';
import type { AudioType } from '../media/sniff';
import type { User } from '../users/user.entity';
import { baseName, matchClips, type StagedClip } from './clip-matching';
import { probeClips } from './clip-probes';
import { ImportLifecycle, type TakenImport } from './import-lifecycle';
import { ImportStage } from './import-stage';
import {
  MAX_CLIPS,
  type BoundariesDto,
  type ChapterImportAnswer,
  type ChapterImportDto,
  type ImportAligning,
  type ChapterImportResponse,
  type ImportRowResponse,
  type RecordingPeaksAnswer,
} from './imports.dto';
import { SignedLinks } from '../common/signed-links';
import { readChapterManifest, type ChapterManifest, type ChapterRow } from './manifests';
import type { StagedImport } from './staged-import.entity';
import { espeakLanguages, referenceVoice } from '../alignment/voices';
import { AlignmentJobs } from './alignment-jobs';
import { alignStaged, evenCuts, mismatchWarning, UNSURE_BELOW, unsureCount } from './recording-alignment';
import { checkedCuts, findCuts, recordingRows, requireFfmpeg, segments, textEdges } from './recording-import';
import { computePeaks, readPeaks, type RecordingPeaks } from './recording-peaks';
import { cutSegments, MIN_SEGMENT_MS, validateBoundaries } from './silence-split';
import { FfmpegError, FFMPEG_MISSING_MESSAGE, probeDurationMs } from './ffmpeg';
import {
  decodeText,
  parseImportText,
  rowTextProblem,
  TextRejected,
  TooManyRows,
  type ParsedText,
  type TextRow,
} from './text-formats';
import { extractZip, isJunk, ZipRejected } from './zip-entries';

/**
 * ffmpeg's refusal of a recording or of its cuts is the administrator's to fix (a 422); a missing ffmpeg
 * is a 503 that says how to install it; anything else (a timeout, a full disk) is ours, a logged 500.
 */
function ffmpegRefusal(error: unknown, message: string, field?: string): unknown {
  if (!(error instanceof FfmpegError)) return error;
  if (error.kind === 'missing') return new ServiceUnavailableException(FFMPEG_MISSING_MESSAGE);
  if (error.kind !== 'failed' || /No space left|Permission denied/i.test(error.stderr)) return error;
  return field ? ValidationFailed.field(field, message) : new RuleFailed(message);
}

export const STILL_ALIGNING =
  'The recording is still being aligned to its text: look again at the import in a moment.';

/** Why a recording is cut at its pauses rather than aligned to its text. */
async function noVoiceReason(language: string | null): Promise<string> {
  const why = !language
    ? 'The book has no language'
    : (await espeakLanguages()).size
      ? `No reference voice speaks this book's language (${language})`
      : 'eSpeak NG, which aligns a recording to its text, is not installed on this server';
  return `${why}: the recording is cut at its pauses, without its text (docs/import.md lists the languages that are aligned).`;
}

/** What a preview link grants: one clip of one staged import (0 is the recording). */
export function previewSubject(id: string, n: number): string {
  return `${id}/${n}`;
}

/** A staged clip for the preview's <audio>, which cannot send a token (ImportPreviewController checks it). */
function previewUrl(links: SignedLinks, id: string, n: number): string {
  return links.sign('import-preview', previewSubject(id, n), `/api/v1/import-preview/${id}/${n}`).url;
}

/** The name of a recording's peaks beside it in the import store. */
const PEAKS_FILE = 'peaks.json';

async function looksLikeZip(file: UploadedFile): Promise<boolean> {
  if (file.originalname.toLowerCase().endsWith('.zip')) return true;
  const handle = await open(file.path, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return head.toString('latin1', 0, 2) === 'PK';
  } finally {
    await handle.close();
  }
}

/**
 * Importing a chapter in one step: a text file plus its clips (many files, or one zip) is staged and
 * previewed row by row; nothing reaches the chapter until the commit, which adds every row in one
 * transaction or none.
 */
@Injectable()
export class ChapterImportService {
  /** Peaks being computed on this instance, by import: a second request waits for the first. */
  private readonly computing = new Map<string, Promise<RecordingPeaks>>();

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
        ? await this.stageRecording(
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
    const matched = matchClips(text, await this.gatherClips(id, files));
    const rows: ChapterRow[] = matched.rows.map((row) => ({ ...row, duration_ms: null }));
    await probeClips(rows, (file) => this.media.probeAudio(this.stage.file(id, file)));
    return { format: text.format, rows, errors: matched.errors };
  }

  /**
   * One recording of the whole chapter: checked as audio, then aligned to its text when the book's
   * language has a reference voice (server/alignment/, docs/alignment.md): within the request when it is
   * short, else by a job (`job` is then true: the import is staged 'aligning'). Without a voice, it is cut
   * at its N−1 longest pauses.
   */
  private async stageRecording(
    id: string,
    file: UploadedFile,
    rows: TextRow[],
    format: string,
    language: string | null,
  ): Promise<{ manifest: ChapterManifest; job: boolean }> {
    let type: AudioType;
    try {
      type = (await this.media.probeAudio(file.path)).type;
    } catch (error) {
      if (error instanceof MediaRejectedError) throw ValidationFailed.field('recording', error.message);
      throw error;
    }
    const name = `recording.${type}`;
    const path = await this.stage.adopt(id, file.path, name);
    const voice = language ? await referenceVoice(language) : null;
    let found: { durationMs: number; cuts: number[]; notice: string | null };
    try {
      if (voice) {
        const durationMs = await probeDurationMs(path);
        found = { durationMs, cuts: evenCuts(durationMs, rows.length), notice: null };
      } else found = await findCuts(path, Math.max(1, rows.length));
    } catch (error) {
      throw ffmpegRefusal(error, 'ffmpeg cannot read this recording: it may be damaged.', 'recording');
    }
    const { durationMs } = found;
    // Whether any boundaries could give every phrase 50 ms (the found ones may be moved in the preview).
    const fits = durationMs >= MIN_SEGMENT_MS * Math.max(1, rows.length);
    const matched = matchClips({ format: 'blocks', rows }, []);
    const manifest: ChapterManifest = {
      format,
      recording: { file: name, type, duration_ms: durationMs, cuts: found.cuts, ...(voice && { voice }) },
      notice: voice ? null : `${await noVoiceReason(language)} ${found.notice ?? ''}`.trim(),
      errors: fits
        ? []
        : [
            `The recording (${(durationMs / 1000).toFixed(1)} s) is too short for ${rows.length} phrases: check that this is the right recording and text.`,
          ],
      // The segments are the clips; only the row's own text can be its problem.
      rows: matched.rows.map((row) => ({ ...row, error: rowTextProblem(row), duration_ms: null })),
    };
    if (!voice || !fits || rows.length < 2) return { manifest, job: false };
    if (this.jobs.isLong(durationMs)) return { manifest, job: true };
    try {
      return { manifest: await alignStaged(manifest, path, voice), job: false };
    } catch (error) {
      throw ffmpegRefusal(error, 'ffmpeg cannot read this recording: it may be damaged.', 'recording');
    }
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
    if (staged.status !== 'aligning') return this.preview(staged);
    return {
      import_id: staged.id,
      status: 'aligning',
      progress: { percent: staged.progress ?? 0, eta_s: staged.etaS ?? 0 },
    };
  }

  /** The answer of the staging call and of a later look at the same import. */
  preview(staged: StagedImport): ChapterImportResponse {
    const manifest = readChapterManifest(staged.manifest);
    const spans = manifest.recording ? segments(manifest.recording) : [];
    const rows: ImportRowResponse[] = manifest.rows.map((row, i) => ({
      n: row.n,
      phrase: row.phrase,
      dictionary: row.dictionary,
      translations: row.translations ?? {},
      clip: row.clip,
      duration_ms: spans[i] ? spans[i].endMs - spans[i].startMs : row.duration_ms,
      ...(spans[i] && { start_ms: spans[i].startMs, end_ms: spans[i].endMs }),
      ...(manifest.recording?.confidence && { confidence: manifest.recording.confidence[i] }),
      audio: row.file && !row.error ? previewUrl(this.links, staged.id, row.n) : null,
      error: row.error,
    }));
    const mismatch = manifest.recording ? mismatchWarning(manifest.recording) : null;
    return {
      import_id: staged.id,
      status: 'ready',
      kind: staged.kind,
      mode: staged.mode,
      chapter_id: staged.chapterId,
      format: manifest.format,
      recording: manifest.recording
        ? {
            url: previewUrl(this.links, staged.id, 0),
            duration_ms: manifest.recording.duration_ms,
            cuts: manifest.recording.cuts,
            start_ms: spans[0]?.startMs ?? 0,
            end_ms: spans.at(-1)?.endMs ?? manifest.recording.duration_ms,
            unsure_below: manifest.recording.confidence ? UNSURE_BELOW : null,
            unsure: unsureCount(manifest.recording),
            mismatch,
          }
        : null,
      notice: manifest.notice ?? null,
      rows,
      errors: [
        ...manifest.rows.filter((row) => row.error).map((row) => `Row ${row.n}: ${row.error}`),
        ...manifest.errors,
        ...(mismatch ? [mismatch] : []),
      ],
      expires_at: new Date(staged.createdAt.getTime() + 24 * 3_600_000).toISOString(),
    };
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
    let running = this.computing.get(staged.id);
    if (!running) {
      running = this.computePeaks(staged.id, recording.file, recording.duration_ms).finally(() =>
        this.computing.delete(staged.id),
      );
      this.computing.set(staged.id, running);
    }
    return { data: await running };
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
    const cut = manifest.recording ? await this.cutRecording(staged.id, manifest) : null;
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

  /**
   * Cuts the recording at its boundaries, in one ffmpeg run, into a local folder under tmp/ (from a local
   * copy of the staged recording): the rows' clips, in order. `cleanup` removes what is left of them.
   */
  private async cutRecording(id: string, manifest: ChapterManifest) {
    await requireFfmpeg();
    const recording = manifest.recording!;
    // Guessed boundaries (too few pauses) may leave segments too short to cut: the administrator moves them.
    const check = validateBoundaries(
      recording.cuts,
      recording.duration_ms,
      manifest.rows.length,
      recording.start_ms,
      recording.end_ms,
    );
    if (!check.ok)
      throw new RuleFailed(`Move the boundaries first: ${check.errors.map((e) => e.message).join('; ')}.`);
    const dir = this.media.tempPath();
    const cleanup = () => rm(dir, { recursive: true, force: true });
    await mkdir(dir);
    const source = await this.stage.localCopy(id, recording.file);
    // What comes before the text and after it (an announcement, music) is cut off and left out.
    // Edges within 50 ms of the recording's own are its own (textEdges): no sliver is cut off.
    const edges = textEdges(recording.start_ms, recording.end_ms, recording.duration_ms);
    const lead = edges.start_ms ? [edges.start_ms] : [];
    const tail = edges.end_ms !== undefined && edges.end_ms < recording.duration_ms ? [edges.end_ms] : [];
    let clips: string[];
    try {
      clips = await cutSegments(source.path, [...lead, ...recording.cuts, ...tail], dir);
      const outside = [...clips.slice(0, lead.length), ...clips.slice(clips.length - tail.length)];
      await Promise.all(outside.map((clip) => rm(clip, { force: true })));
      clips = clips.slice(lead.length, clips.length - tail.length);
    } catch (error) {
      await cleanup();
      // A disk error is ours (a 500, logged); ffmpeg's refusal of these cuts is the administrator's to fix.
      throw ffmpegRefusal(
        error,
        'The recording could not be cut at these boundaries: move them and try again.',
      );
    } finally {
      await source.release();
    }
    if (clips.length !== manifest.rows.length) {
      await cleanup();
      throw new RuleFailed('The recording could not be cut at these boundaries: move them and try again.');
    }
    return { files: clips, cleanup };
  }

  /**
   * The uploaded clips, moved into the import's folder under numbered names: one zip is extracted there
   * (with every bomb and path check), several files are taken as they are. Junk from macOS is left out.
   */
  private async gatherClips(id: string, files: UploadedFile[]): Promise<StagedClip[]> {
    const dir = this.stage.workDir(id);
    let clips: StagedClip[];
    if (files.length === 1 && (await looksLikeZip(files[0]))) {
      try {
        clips = (await extractZip(files[0].path, dir)).map((entry) => ({
          name: baseName(entry.name),
          file: baseName(entry.file),
        }));
      } catch (error) {
        if (!(error instanceof ZipRejected)) throw error;
        if (error.status === 413) throw new PayloadTooLargeException(error.message);
        throw ValidationFailed.field('clips', error.message);
      }
    } else {
      clips = [];
      for (const [i, file] of files.entries()) {
        const name = baseName(file.originalname);
        if (isJunk(name)) continue;
        await this.stage.adopt(id, file.path, `${i + 1}.clip`);
        clips.push({ name, file: `${i + 1}.clip` });
      }
    }
    if (clips.length > MAX_CLIPS)
      throw ValidationFailed.field(
        'clips',
        `The upload holds ${clips.length} clips; the most is ${MAX_CLIPS}.`,
      );
    const seen = new Set<string>();
    for (const clip of clips) {
      if (seen.has(clip.name.toLowerCase()))
        throw ValidationFailed.field(
          'clips',
          `Two clips are named "${clip.name}": give each clip its own name.`,
        );
      seen.add(clip.name.toLowerCase());
    }
    return clips;
  }
}
