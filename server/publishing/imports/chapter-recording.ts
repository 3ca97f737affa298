import { ServiceUnavailableException } from '@nestjs/common';
import { mkdir, rm } from 'node:fs/promises';
import { espeakLanguages, referenceVoice } from '../alignment/voices';
import { RuleFailed, ValidationFailed } from '../../platform/common/api-error';
import type { UploadedFile } from '../../platform/common/uploaded-file.validator';
import { MediaRejectedError, type MediaService } from '../../platform/media/media.service';
import type { AudioType } from '../../platform/media/sniff';
import type { AlignmentJobs } from './alignment-jobs';
import { matchClips } from './clip-matching';
import { FfmpegError, FFMPEG_MISSING_MESSAGE, probeDurationMs } from './ffmpeg';
import type { ImportStage } from './import-stage';
import type { ChapterManifest } from './manifests';
import { alignStaged, evenCuts } from './recording-alignment';
import { findCuts, requireFfmpeg, textEdges } from './recording-import';
import { cutSegments, MIN_SEGMENT_MS, validateBoundaries } from './silence-split';
import { rowTextProblem, type TextRow } from './text-formats';

/*
 * A chapter imported as one recording (ChapterImportService): checked and aligned, or cut at its pauses,
 * when it is staged; cut into the rows' clips when it is committed.
 */

export const STILL_ALIGNING =
  'The recording is still being aligned to its text: look again at the import in a moment.';

/**
 * ffmpeg's refusal of a recording or of its cuts is the administrator's to fix (a 422); a missing ffmpeg
 * is a 503 that says how to install it; anything else (a timeout, a full disk) is ours, a logged 500.
 */
export function ffmpegRefusal(error: unknown, message: string, field?: string): unknown {
  if (!(error instanceof FfmpegError)) return error;
  if (error.kind === 'missing') return new ServiceUnavailableException(FFMPEG_MISSING_MESSAGE);
  if (error.kind !== 'failed' || /No space left|Permission denied/i.test(error.stderr)) return error;
  return field ? ValidationFailed.field(field, message) : new RuleFailed(message);
}

/** Why a recording is cut at its pauses rather than aligned to its text. */
async function noVoiceReason(language: string | null): Promise<string> {
  const why = !language
    ? 'The book has no language'
    : (await espeakLanguages()).size
      ? `No reference voice speaks this book's language (${language})`
      : 'eSpeak NG, which aligns a recording to its text, is not installed on this server';
  return `${why}: the recording is cut at its pauses, without its text (docs/import.md lists the languages that are aligned).`;
}

/** What staging a recording works with: the chapter import's own services. */
export interface RecordingTools {
  media: MediaService;
  stage: ImportStage;
  jobs: AlignmentJobs;
}

/**
 * One recording of the whole chapter: checked as audio, then aligned to its text when the book's
 * language has a reference voice (server/publishing/alignment/, docs/alignment.md): within the request when it is
 * short, else by a job (`job` is then true: the import is staged 'aligning'). Without a voice, it is cut
 * at its N−1 longest pauses.
 */
export async function stageRecording(
  { media, stage, jobs }: RecordingTools,
  id: string,
  file: UploadedFile,
  rows: TextRow[],
  format: string,
  language: string | null,
): Promise<{ manifest: ChapterManifest; job: boolean }> {
  let type: AudioType;
  try {
    type = (await media.probeAudio(file.path)).type;
  } catch (error) {
    if (error instanceof MediaRejectedError) throw ValidationFailed.field('recording', error.message);
    throw error;
  }
  const name = `recording.${type}`;
  const path = await stage.adopt(id, file.path, name);
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
  if (jobs.isLong(durationMs)) return { manifest, job: true };
  try {
    return { manifest: await alignStaged(manifest, path, voice), job: false };
  } catch (error) {
    throw ffmpegRefusal(error, 'ffmpeg cannot read this recording: it may be damaged.', 'recording');
  }
}

/**
 * Cuts the recording at its boundaries, in one ffmpeg run, into a local folder under tmp/ (from a local
 * copy of the staged recording): the rows' clips, in order. `cleanup` removes what is left of them.
 */
export async function cutRecording(
  { media, stage }: Pick<RecordingTools, 'media' | 'stage'>,
  id: string,
  manifest: ChapterManifest,
) {
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
  const dir = media.tempPath();
  const cleanup = () => rm(dir, { recursive: true, force: true });
  await mkdir(dir);
  const source = await stage.localCopy(id, recording.file);
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
