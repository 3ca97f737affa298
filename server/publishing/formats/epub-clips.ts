import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { InFlight } from '../../platform/common/in-flight';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { FfmpegError, ffmpegInput, runFfmpeg } from '../imports/ffmpeg';
import { exportedClip } from '../../platform/media/id3';
import { DERIVED_STORE, MEDIA_STORE } from '../../platform/media/store/create-stores';
import type { MediaStore } from '../../platform/media/store/media-store';
import {
  AudioMeasures,
  eachLimited,
  hidePath,
  UndecodableAudioError,
  withFfmpegSlot,
  type MeasuredStore,
} from './audio-measures';

/** A phrase's clip as it goes into an EPUB: the stored file, or its AAC transcode in the derived store. */
export interface EpubClip {
  store: MeasuredStore;
  key: string;
  ext: 'mp3' | 'm4a';
  mediaType: 'audio/mpeg' | 'audio/mp4';
  /**
   * The span it plays: the decoded length of the phrase's stored clip, the one measure of a clip everywhere
   * (the API's `duration_ms`, subtitles, M4B). A transcode keeps the audio where it was (within 3 ms) and
   * pads its end to a whole AAC frame (up to 1,024 samples), which the span leaves out.
   */
  decodedUs: number;
}

type Placed = Omit<EpubClip, 'decodedUs'>;

/** Transcodes at once per call, as for measuring: two ffmpeg beside the server's other work. */
const TRANSCODE_CONCURRENCY = 2;

/** Codecs probed per media key: keys are never reused, so an answer holds for the process's life. */
const MAX_PROBED = 100_000;

/**
 * The audio path's extension is the type the upload was sniffed as (server/platform/media/sniff.ts). EPUB readers
 * and EPUBCheck (MED-005) take MP3 and AAC in MP4 only: MP3 goes in as stored, MP4 too once its codec is
 * probed to be AAC (it may hold ALAC or Opus), the rest as an AAC-in-MP4 transcode (docs/formats.md
 * "Clips inside an EPUB"). Null: transcode; 'probe': an MP4 whose codec decides.
 */
function asStored(audioPath: string): Placed | 'probe' | null {
  const ext = extname(audioPath).slice(1).toLowerCase();
  if (ext === 'mp3') return { store: 'media', key: audioPath, ext: 'mp3', mediaType: 'audio/mpeg' };
  if (ext === 'm4a') return 'probe';
  return null;
}

/** `lines/ab12.wav` → `epub-audio/ab12.m4a`: media keys are random, so the file name alone is unique. */
export function transcodeKey(audioPath: string): string {
  return `epub-audio/${basename(audioPath, extname(audioPath))}.m4a`;
}

@Injectable()
export class EpubClips {
  /** Transcodes under way, by derived key: a second request for the same clip waits for the first. */
  private readonly running = new InFlight<void>();
  /** media key of an MP4 clip → whether its first audio stream is AAC. */
  private readonly aac = new Map<string, Promise<boolean>>();

  constructor(
    @Inject(MEDIA_STORE) private readonly media: MediaStore,
    @Inject(DERIVED_STORE) private readonly derived: MediaStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly measures: AudioMeasures,
  ) {}

  /**
   * audio path (phrases.audio_path) → its EPUB clip, transcoding and measuring what is needed. Rejects with
   * FfmpegError('missing') without ffmpeg (callers answer 503), UndecodableAudioError for a clip that is
   * not decodable audio, ObjectNotFoundError for a path with no stored file. Once `signal` is aborted no
   * further clip is probed, transcoded or measured (those under way finish), and it rejects.
   */
  async forEpub(audioPaths: readonly string[], signal?: AbortSignal): Promise<Map<string, EpubClip>> {
    const placed = new Map<string, Placed>();
    const toTranscode: string[] = [];
    const toProbe: string[] = [];
    const transcoded = (path: string) => {
      placed.set(path, { store: 'derived', key: transcodeKey(path), ext: 'm4a', mediaType: 'audio/mp4' });
      toTranscode.push(path);
    };
    for (const path of new Set(audioPaths)) {
      const stored = asStored(path);
      if (stored === 'probe') toProbe.push(path);
      else if (stored) placed.set(path, stored);
      else transcoded(path);
    }
    await eachLimited(
      toProbe,
      TRANSCODE_CONCURRENCY,
      async (path) => {
        if (await this.isAac(path))
          placed.set(path, { store: 'media', key: path, ext: 'm4a', mediaType: 'audio/mp4' });
        else transcoded(path);
      },
      signal,
    );
    await eachLimited(toTranscode, TRANSCODE_CONCURRENCY, (path) => this.transcodeOnce(path), signal);

    const lengths = await this.measures.lengths([...placed.keys()], 'media', signal);
    const clips = new Map<string, EpubClip>();
    for (const [path, clip] of placed) clips.set(path, { ...clip, decodedUs: lengths.get(path)! });
    return clips;
  }

  /** A clip's bytes as they go into the EPUB: an MP3 without its ID3 tags (platform/media/id3.ts). */
  async read(clip: EpubClip): Promise<Readable> {
    if (clip.store === 'derived') return this.derived.read(clip.key);
    return exportedClip(clip.key, await this.media.read(clip.key));
  }

  private transcodeOnce(audioPath: string): Promise<void> {
    const key = transcodeKey(audioPath);
    return this.running.run(key, () => this.transcode(audioPath, key));
  }

  private isAac(audioPath: string): Promise<boolean> {
    let known = this.aac.get(audioPath);
    if (!known) {
      if (this.aac.size >= MAX_PROBED) this.aac.clear();
      known = withFfmpegSlot(() => this.probeAac(audioPath));
      this.aac.set(audioPath, known);
      // A failure (no ffmpeg, no object) is not an answer: the next call asks again.
      known.catch(() => this.aac.delete(audioPath));
    }
    return known;
  }

  /** ffmpeg's stream info (`Audio: aac (LC) (mp4a / …)`), read without decoding a frame. */
  private async probeAac(audioPath: string): Promise<boolean> {
    const source = await this.media.localCopy(audioPath);
    try {
      const info = await runFfmpeg([
        '-v',
        'info',
        '-i',
        ffmpegInput(source.path),
        '-map',
        '0:a:0',
        '-c',
        'copy',
        '-t',
        '0',
        '-f',
        'null',
        '-',
      ]).catch((error: unknown) => {
        if (error instanceof FfmpegError && error.kind === 'failed') {
          throw new UndecodableAudioError(audioPath, hidePath(error.message, source.path, audioPath));
        }
        throw error;
      });
      // The output's one stream is the first audio stream (`-map 0:a:0`); the input lists every stream.
      const output = info.slice(info.indexOf('Output #0'));
      return /Stream #0:0[^:]*: Audio: aac\b/.test(output);
    } finally {
      await source.release();
    }
  }

  /**
   * Made once: a derived key names one source clip forever (media keys are never reused). Its span in the
   * EPUB is the source's length, so a remade file (another instance, another ffmpeg) changes no time.
   */
  private async transcode(audioPath: string, key: string): Promise<void> {
    if (await this.derived.head(key)) return;
    await withFfmpegSlot(() => this.transcodeNow(audioPath, key));
  }

  private async transcodeNow(audioPath: string, key: string): Promise<void> {
    const tempDir = join(this.config.storageDir, 'tmp');
    await mkdir(tempDir, { recursive: true });
    const out = join(tempDir, `epub-${randomBytes(8).toString('hex')}.m4a`);
    const source = await this.media.localCopy(audioPath);
    try {
      await runFfmpeg([
        '-v',
        'error',
        '-i',
        ffmpegInput(source.path),
        '-map',
        '0:a:0',
        '-map_metadata',
        '-1',
        '-c:a',
        'aac',
        '-b:a',
        '96k',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        out,
      ]).catch((error: unknown) => {
        if (error instanceof FfmpegError && error.kind === 'failed') {
          throw new UndecodableAudioError(audioPath, hidePath(error.message, source.path, audioPath));
        }
        throw error;
      });
      // put moves the file in whole (a rename, or an upload): a half-made transcode is never under the key.
      await this.derived.put(key, out, 'audio/mp4');
    } finally {
      await source.release();
      await rm(out, { force: true });
    }
  }
}
