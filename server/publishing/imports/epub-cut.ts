import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PHRASE_UPLOADS } from '../../platform/common/body-limits';
import {
  decodedLengthUs,
  eachLimited,
  UndecodableAudioError,
  withFfmpegSlot,
} from '../formats/audio-measures';
import { ValidationFailed } from '../../platform/common/api-error';
import { MediaRejectedError } from '../../platform/media/media.service';
import { isAudio, sniffFile, type AudioType } from '../../platform/media/sniff';
import { BOOK_ZIP_LIMITS } from './book-imports.dto';
import { MAX_CLIP_MS, MIN_CLIP_MS, type ClipSource, type OverlayChapter } from './epub-chapters';
import { FfmpegError, ffmpegInput, runFfmpeg } from './ffmpeg';
import type { ChapterRow } from './manifests';

/** How far a clip may be from its whole file and still be the whole file (docs/import.md). */
const WHOLE_FILE_MS = 5;
/** A clipEnd this far past its file's end is the file's end (encoders round); further is a problem. */
const END_SLACK_MS = 50;
/** ffmpeg runs at once while staging an EPUB: the server keeps serving while a book is cut. */
const FFMPEG_AT_ONCE = 2;
const CUT_TIMEOUT_MS = 60_000;
/**
 * Distinct audio files an EPUB's phrases may use, each decoded once to be measured: our own export writes
 * one file per phrase, so the cap is the most phrases a book may import (MAX_EPUB_PARS).
 */
export const MAX_EPUB_AUDIO_FILES = 20_000;
/**
 * Ranges may overlap only by encoders' rounding: all the clips to cut may last at most this much more than
 * the audio they are cut from (plus a minute for rounding), else one short file cut a thousand times over
 * would fill the disk.
 */
const CUT_OVERLAP = 1.1;
const CUT_SLACK_MS = 60_000;
/** What a second of cut clip costs on disk: MP3 at 128 kbit/s. */
const CUT_BYTES_PER_SECOND = 128_000 / 8;

type Probe = (file: string) => Promise<{ type: AudioType; durationMs: number | null }>;

/** An audio file of the EPUB, in the stage: its staged name, type and decoded length. */
export interface SourceAudio {
  staged: string;
  type: AudioType;
  lengthMs: number;
  size: number;
}

/** A row's clip once its range is known against its file: whole (copied as is) or a range to cut. */
interface Planned {
  row: ChapterRow;
  audio: SourceAudio;
  begin: number;
  end: number;
  whole: boolean;
}

/**
 * Measures each audio file the phrases use (its type by content, its length by decoding), then checks
 * each phrase's range against its file. Every problem is put on its row. Answers the clips to make.
 */
export async function planClips(
  chapters: OverlayChapter[],
  staged: (path: string) => { staged: string; size: number },
  stageDir: string,
): Promise<Planned[]> {
  const used = [...new Set(chapters.flatMap(({ sources }) => [...sources.values()].map((s) => s.audio)))];
  if (used.length > MAX_EPUB_AUDIO_FILES)
    throw ValidationFailed.field(
      'zip',
      `The EPUB's phrases use ${used.length} audio files; the most a book can import is ${MAX_EPUB_AUDIO_FILES}.`,
    );
  const audio = new Map<string, SourceAudio | string>();
  await eachLimited(used, FFMPEG_AT_ONCE, async (path) => {
    const file = staged(path);
    const local = join(stageDir, file.staged);
    const type = await sniffFile(local);
    if (!isAudio(type)) {
      audio.set(path, notAudio(path));
      return;
    }
    try {
      // In the process's ffmpeg slots: imports and downloads together run at most a few ffmpeg.
      const us = await withFfmpegSlot(() => decodedLengthUs(local));
      audio.set(path, { ...file, type, lengthMs: us / 1000 });
    } catch (error) {
      // A file ffmpeg cannot decode, or not within its time: a problem of the phrases using it.
      if (!(
        error instanceof UndecodableAudioError ||
        (error instanceof FfmpegError && error.kind === 'timeout')
      ))
        throw error;
      audio.set(path, `Its audio ${path} could not be decoded.`);
    }
  });
  const planned: Planned[] = [];
  for (const { sources } of chapters)
    for (const [row, source] of sources) {
      const found = audio.get(source.audio)!;
      const plan = typeof found === 'string' ? found : plan1(row, source, found);
      if (typeof plan === 'string') {
        row.error = plan;
        sources.delete(row);
      } else planned.push(plan);
    }
  return planned;
}

function plan1(row: ChapterRow, source: ClipSource, audio: SourceAudio): Planned | string {
  const length = audio.lengthMs;
  if (source.begin >= length) return `Its clip begins after the end of ${source.audio}.`;
  if (source.end !== null && source.end > length + END_SLACK_MS)
    return `Its clip ends at ${(source.end / 1000).toFixed(3)} s, after the end of ${source.audio} (${(length / 1000).toFixed(3)} s).`;
  const end = Math.min(source.end ?? length, length);
  if (end - source.begin < MIN_CLIP_MS)
    return `Its clip lasts ${Math.round(end - source.begin)} ms; the least for a phrase is ${MIN_CLIP_MS} ms.`;
  if (end - source.begin > MAX_CLIP_MS)
    return `Its clip lasts ${((end - source.begin) / 1000).toFixed(1)} s; the most for a phrase is ${MAX_CLIP_MS / 1000} s.`;
  const whole = source.begin <= WHOLE_FILE_MS && Math.abs(end - length) <= WHOLE_FILE_MS;
  return { row, audio, begin: source.begin, end, whole };
}

/** The phrases' ranges added up, before measuring (a range without clipEnd counts nothing). */
export const spansMs = (chapters: OverlayChapter[]) =>
  chapters
    .flatMap(({ sources }) => [...sources.values()])
    .reduce((sum, source) => sum + (source.end === null ? 0 : source.end - source.begin), 0);

/**
 * A book with problems before its audio is measured: each row names its source file, its type by content
 * (a header read, no decoding) and its range's span (null without a clipEnd).
 */
export async function leaveUnmeasured(
  chapters: OverlayChapter[],
  staged: (path: string) => { staged: string },
  stageDir: string,
): Promise<void> {
  const used = [...new Set(chapters.flatMap(({ sources }) => [...sources.values()].map((s) => s.audio)))];
  const types = new Map<string, AudioType | null>();
  await eachLimited(used, SNIFF_AT_ONCE, async (path) => {
    const type = await sniffFile(join(stageDir, staged(path).staged));
    types.set(path, isAudio(type) ? type : null);
  });
  for (const { sources } of chapters)
    for (const [row, source] of sources) {
      const type = types.get(source.audio);
      if (!type) row.error = notAudio(source.audio);
      else
        Object.assign(row, {
          file: staged(source.audio).staged,
          type,
          duration_ms: source.end === null ? null : Math.round(source.end - source.begin),
        });
    }
}

const SNIFF_AT_ONCE = 8;
const notAudio = (path: string) => `Its audio ${path} is not MP3, AAC, Ogg or WAV audio.`;

/**
 * Until the book has no problem left, nothing is cut (bounded work for a book that cannot be committed):
 * each row names its source file and the span it would have, which the commit never reaches.
 */
export function leaveUncut(planned: Planned[]): void {
  for (const { row, audio, begin, end } of planned) {
    row.file = audio.staged;
    row.type = audio.type;
    row.duration_ms = Math.round(end - begin);
  }
}

/**
 * Makes each row's clip in the stage: a phrase spanning its whole file is that file, as is; any other is
 * re-encoded from its range with accurate input seeking, since a stream copy can only cut at frame
 * boundaries. MP3, because its LAME header tells decoders the encoder's delay and padding: the clip decodes
 * to its range's length exactly, where AAC in MP4 here decoded 18 ms longer (its last frame's padding).
 * The clip is then checked as the commit will check it.
 */
export async function cutClips(planned: Planned[], stageDir: string, probe: Probe): Promise<void> {
  checkCutBudget(planned);
  let made = 0;
  let written = 0;
  await eachLimited(planned, FFMPEG_AT_ONCE, async (plan) => {
    const { row, audio } = plan;
    let file = audio.staged;
    if (!plan.whole) {
      file = `epub-${++made}.mp3`;
      try {
        const input = join(stageDir, audio.staged);
        await withFfmpegSlot(() => cut(input, join(stageDir, file), plan.begin, plan.end));
      } catch (error) {
        if (!(error instanceof FfmpegError) || error.kind === 'missing') throw error;
        // ffmpeg's own words name the stage's folders: the preview says what failed, not where.
        row.error = `Its clip could not be cut from ${row.clip}: ${
          error.kind === 'timeout' ? 'ffmpeg took too long' : 'ffmpeg could not decode that range'
        }.`;
        return;
      }
    }
    const size = (await stat(join(stageDir, file))).size;
    if (!plan.whole && (written += size) > BOOK_ZIP_LIMITS.totalBytes)
      throw ValidationFailed.field('zip', CUT_TOO_MUCH);
    if (size > PHRASE_UPLOADS.line_audio) {
      row.error = `Its clip is larger than 10 MB, the most for a clip.`;
      return;
    }
    // A whole file was sniffed and decoded when measured: its decoded length is exact.
    if (plan.whole) {
      Object.assign(row, { file, type: audio.type, duration_ms: Math.round(audio.lengthMs) });
      return;
    }
    try {
      // The length is the range's: the cut decodes to it exactly, where a container's figure for an MP3
      // counts the encoder's padding (46 ms here).
      const { type } = await probe(join(stageDir, file));
      Object.assign(row, { file, type, duration_ms: Math.round(plan.end - plan.begin) });
    } catch (error) {
      if (!(error instanceof MediaRejectedError)) throw error;
      row.error = `Its clip is not usable: ${error.message}`;
    }
  });
}

const CUT_TOO_MUCH = `The EPUB's clips would make more audio than the book's files hold, or more than ${
  BOOK_ZIP_LIMITS.totalBytes / 1024 / 1024 / 1024
} GB: its phrases' ranges overlap; each phrase should have its own stretch of audio.`;

/**
 * Refuses (422) before any cut a book whose ranges add up to more than its audio files hold (overlapping
 * ranges cannot honestly exceed it), or whose clips would outgrow what a book's zip may hold.
 */
function checkCutBudget(planned: Planned[]) {
  const sources = new Map<SourceAudio, number>();
  let cutMs = 0;
  let wholeBytes = 0;
  for (const plan of planned) {
    sources.set(plan.audio, plan.audio.lengthMs);
    if (plan.whole) wholeBytes += plan.audio.size;
    else cutMs += plan.end - plan.begin;
  }
  const audioMs = [...sources.values()].reduce((sum, ms) => sum + ms, 0);
  const bytes = wholeBytes + (cutMs / 1000) * CUT_BYTES_PER_SECOND;
  if (cutMs > audioMs * CUT_OVERLAP + CUT_SLACK_MS || bytes > BOOK_ZIP_LIMITS.totalBytes)
    throw ValidationFailed.field('zip', CUT_TOO_MUCH);
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function cut(input: string, output: string, begin: number, end: number) {
  return runFfmpeg(
    [
      '-v',
      'error',
      '-ss',
      seconds(begin),
      '-i',
      ffmpegInput(input),
      '-t',
      seconds(end - begin),
      '-map',
      '0:a:0',
      '-map_metadata',
      '-1',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      '-f',
      'mp3',
      ffmpegInput(output),
    ],
    { timeoutMs: CUT_TIMEOUT_MS },
  );
}
