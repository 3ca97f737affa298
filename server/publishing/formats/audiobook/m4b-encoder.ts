import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { Logger } from '@nestjs/common';
import sharp from 'sharp';
import { FfmpegError, ffmpegInput, ffmpegPath, runFfmpeg } from '../../imports/ffmpeg';
import { coverFile } from '../../../platform/media/media-urls';
import type { MediaStore } from '../../../platform/media/store/media-store';
import { decodeToPcm, PCM_RATE } from '../pcm';
import type { AudiobookContents } from './audiobook-contents';
import { ClipPrefetch } from './clip-prefetch';
import { iso639_2B, setTrackLanguages } from './track-language';

/** Mono speech: AAC-LC at 64 kb/s is transparent enough and keeps a 7-hour book near 200 MB. */
const BITRATE = '64k';
const MAX_STDERR_CHARS = 4096;
/** The cover as it goes in the file: JPEG (players know no WebP), at the stored size's width. */
const COVER_WIDTH = 640;

const logger = new Logger('Audiobooks');

/** Temp files a build writes; the caller deletes them, whatever happened. */
export interface EncodeFiles {
  audio: string;
  metadata: string;
  cover: string;
  output: string;
}

/** A build stopped from outside (a lost lease, shutdown). */
export class BuildAborted extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'BuildAborted';
  }
}

/**
 * Makes the M4B of `contents` at `files.output`, in two passes: every clip decoded in order
 * (`decodeToPcm`) into one ffmpeg that encodes AAC in MP4, counting the samples written; then a stream
 * copy that adds the chapter marks at those sample counts (known only once every clip has been decoded,
 * while ffmpeg reads its metadata input at start), the tags and the cover. Answers each chapter's length
 * in samples (chapters without clips have no mark).
 */
export async function encodeM4b(
  contents: AudiobookContents,
  media: MediaStore,
  files: EncodeFiles,
  signal: AbortSignal,
): Promise<number[]> {
  const lengths = await encodeAudio(contents, media, files.audio, signal);
  if (signal.aborted) throw new BuildAborted(String(signal.reason));
  // A cover that cannot be read or converted costs the file its picture, not the whole build.
  const withCover = await writeCover(contents, media, files.cover).catch((error: unknown) => {
    logger.warn(`The cover of ${contents.bookCode} is left out of its audiobook: ${String(error)}`);
    return false;
  });
  await writeFile(files.metadata, ffmetadata(contents, lengths));
  if (signal.aborted) throw new BuildAborted(String(signal.reason));
  await runFfmpeg(
    [
      '-v',
      'error',
      '-i',
      ffmpegInput(files.audio),
      '-f',
      'ffmetadata',
      '-i',
      ffmpegInput(files.metadata),
      ...(withCover ? ['-i', ffmpegInput(files.cover)] : []),
      '-map',
      '0:a',
      ...(withCover ? ['-map', '2:v', '-disposition:v:0', 'attached_pic'] : []),
      '-map_metadata',
      '1',
      '-map_chapters',
      '1',
      '-c',
      'copy',
      '-movflags',
      '+faststart',
      // The iPod muxer writes the chapter track Apple's players read; the brand marks an audiobook.
      '-brand',
      'M4B ',
      '-f',
      'ipod',
      '-y',
      ffmpegInput(files.output),
    ],
    // A stream copy: seconds even for a long book; a lost lease or shutdown stops it like pass one.
    { timeoutMs: 10 * 60_000, signal },
  ).catch((error: unknown) => {
    throw signal.aborted ? new BuildAborted(String(signal.reason)) : error;
  });
  // The muxer tags the chapter track English whatever the book: every track gets the book's language.
  await setTrackLanguages(files.output, iso639_2B(contents.language));
  return lengths;
}

/** Pass one: PCM of every clip, in order, into one AAC encoder; each chapter's length in samples. */
function encodeAudio(
  contents: AudiobookContents,
  media: MediaStore,
  output: string,
  signal: AbortSignal,
): Promise<number[]> {
  const child = spawn(
    ffmpegPath(),
    [
      ...['-hide_banner', '-nostdin', '-v', 'error'],
      ...['-f', 's16le', '-ar', String(PCM_RATE), '-ac', '1', '-i', 'pipe:0'],
      ...['-c:a', 'aac', '-b:a', BITRATE, '-f', 'mp4', '-y', ffmpegInput(output)],
    ],
    { stdio: ['pipe', 'ignore', 'pipe'], windowsHide: true },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-MAX_STDERR_CHARS)));
  // A write after ffmpeg died fails with EPIPE: the exit below tells what happened.
  child.stdin.on('error', () => undefined);
  const kill = () => child.kill('SIGKILL');
  signal.addEventListener('abort', kill);

  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      const missing = error.code === 'ENOENT' || error.code === 'EACCES';
      reject(new FfmpegError(missing ? 'missing' : 'failed', error.message));
    });
    child.on('close', (code, exitSignal) => {
      if (signal.aborted) reject(new BuildAborted(String(signal.reason)));
      else if (code === 0) resolve();
      else {
        const detail =
          stderr
            .trim()
            .split(/\r\n|\r|\n/)
            .pop() ?? '';
        reject(new FfmpegError('failed', `ffmpeg failed (${exitSignal ?? `exit ${code}`}): ${detail}`));
      }
    });
  });
  // Whichever fails first (a clip, or the encoder) is the error; the other is then quiet.
  exited.catch(() => undefined);
  // Made once, raced against every clip's decoding: the encoder ending before its input did.
  const encoderGone = exited.then(() =>
    Promise.reject(new FfmpegError('failed', 'the encoder stopped early')),
  );
  encoderGone.catch(() => undefined);

  const clips = new ClipPrefetch(
    media,
    contents.chapters.flatMap((chapter) => chapter.clips.map((clip) => clip.audioPath)),
  );
  const feed = async (): Promise<number[]> => {
    const lengths: number[] = [];
    for (const chapter of contents.chapters) {
      let samples = 0;
      for (const clip of chapter.clips) {
        if (signal.aborted) throw new BuildAborted(String(signal.reason));
        samples += await Promise.race([decodeToPcm(clips.store, clip.audioPath, child.stdin), encoderGone]);
      }
      lengths.push(samples);
    }
    child.stdin.end();
    return lengths;
  };
  return feed()
    .then(async (lengths) => {
      await exited;
      return lengths;
    })
    .catch(async (error: unknown) => {
      kill();
      await exited.catch(() => undefined);
      throw error;
    })
    .finally(async () => {
      signal.removeEventListener('abort', kill);
      await clips.close();
    });
}

/** The stored WebP cover as a JPEG at `file`; false (no picture) for a book whose cover is missing. */
async function writeCover(contents: AudiobookContents, media: MediaStore, file: string): Promise<boolean> {
  if (!contents.coverPath) return false;
  const key = coverFile(contents.coverPath, COVER_WIDTH);
  if (!(await media.head(key))) return false;
  const copy = await media.localCopy(key);
  try {
    await sharp(copy.path).jpeg({ quality: 85 }).toFile(file);
    return true;
  } finally {
    await copy.release();
  }
}

/** ffmpeg's metadata file: the tags, then one chapter per chapter with audio, in samples. */
export function ffmetadata(contents: AudiobookContents, lengths: number[]): string {
  const lines = [
    ';FFMETADATA1',
    `title=${escape(contents.title)}`,
    `album=${escape(contents.title)}`,
    `artist=${escape(contents.author)}`,
    `album_artist=${escape(contents.author)}`,
    `composer=${escape(contents.narrator)}`,
    `comment=${escape(`Narrated by ${contents.narrator}`)}`,
    'genre=Audiobook',
  ];
  let start = 0;
  contents.chapters.forEach((chapter, index) => {
    const length = lengths[index] ?? 0;
    if (length === 0) return;
    lines.push(
      '',
      '[CHAPTER]',
      `TIMEBASE=1/${PCM_RATE}`,
      `START=${start}`,
      `END=${start + length}`,
      `title=${escape(chapter.title)}`,
    );
    start += length;
  });
  return `${lines.join('\n')}\n`;
}

/** ffmetadata's escapes: `=`, `;`, `#`, `\` and line breaks are backslashed. */
function escape(value: string): string {
  return value.replace(/[=;#\\\n]/g, (char) => `\\${char}`).replace(/\r/g, '');
}
