import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import sharp from 'sharp';
import { parseFile } from 'music-metadata';
import { APP_CONFIG, type AppConfig } from '../config';
import { COVER_RATIO, COVER_WIDTHS, coverFile } from './media-urls';
import { AUDIO_EXTENSIONS, isAudio, isImage, sniffFile, type AudioType } from './sniff';

export type AudioKind = 'samples' | 'lines';

export interface StoredAudio {
  path: string;
  durationMs: number | null;
}

/** Thrown when an upload's bytes are not what its field needs; callers turn it into a 422. */
export class MediaRejectedError extends Error {}

/** A cover larger than this is refused before decoding, so a crafted image cannot exhaust memory. */
const MAX_COVER_PIXELS = 40_000_000;
const TEMP_PREFIX = 'tmp';

/** The files behind a stored path: a cover key stands for one file per size. */
function filesOf(path: string): string[] {
  return path.startsWith('covers/') && !path.includes('.')
    ? COVER_WIDTHS.map((w) => coverFile(path, w))
    : [path];
}

const randomName = () => randomBytes(16).toString('hex');

/**
 * The only place that touches uploaded files on disk. New media is written under tmp/ first and renamed
 * into media/ (an atomic step on one file system), so a crash never leaves a half-written file in use.
 */
@Injectable()
export class MediaService {
  private readonly logger = new Logger(MediaService.name);
  readonly mediaDir: string;
  readonly tempDir: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.mediaDir = join(config.storageDir, 'media');
    this.tempDir = join(config.storageDir, TEMP_PREFIX);
  }

  async ensureFolders(): Promise<void> {
    for (const kind of ['covers', 'samples', 'lines'])
      await mkdir(join(this.mediaDir, kind), { recursive: true });
    await mkdir(this.tempDir, { recursive: true });
  }

  /** A fresh path under the temp folder, for an upload or a copy on its way in. */
  tempPath(): string {
    return join(this.tempDir, randomName());
  }

  /** Re-encodes an image into the cover sizes (metadata stripped) and returns the cover's key. */
  async storeCover(tempFile: string): Promise<string> {
    this.assertTemp(tempFile);
    if (!isImage(await sniffFile(tempFile)))
      throw new MediaRejectedError('The cover must be a JPEG, PNG or WebP image.');
    const key = `covers/${randomName()}`;
    const written: string[] = [];
    try {
      const source = sharp(tempFile, { limitInputPixels: MAX_COVER_PIXELS, failOn: 'error' }).rotate();
      for (const width of COVER_WIDTHS) {
        const staged = this.tempPath();
        await source
          .clone()
          .resize(width, Math.round(width * COVER_RATIO), {
            fit: 'cover',
            position: sharp.strategy.attention,
          })
          .webp({ quality: 78 })
          .toFile(staged);
        const target = join(this.mediaDir, coverFile(key, width));
        await rename(staged, target);
        written.push(target);
      }
      return key;
    } catch (error) {
      await Promise.all(written.map((file) => rm(file, { force: true })));
      if (error instanceof MediaRejectedError) throw error;
      throw new MediaRejectedError(
        'The cover image could not be read. Please upload a valid JPEG, PNG or WebP file.',
      );
    } finally {
      await rm(tempFile, { force: true });
    }
  }

  /** Moves a checked audio file into media/<kind>/ and reads its duration from the file itself. */
  async storeAudio(tempFile: string, kind: AudioKind): Promise<StoredAudio> {
    this.assertTemp(tempFile);
    try {
      const { type, durationMs } = await this.probeAudio(tempFile);
      const path = `${kind}/${randomName()}.${AUDIO_EXTENSIONS[type]}`;
      await rename(tempFile, join(this.mediaDir, path));
      return { path, durationMs };
    } finally {
      await rm(tempFile, { force: true });
    }
  }

  /**
   * What an audio file is, by its content, and how long it lasts; a file that is not audio, or that the
   * metadata reader cannot make sense of, is refused with a message an uploader understands.
   */
  async probeAudio(file: string): Promise<{ type: AudioType; durationMs: number | null }> {
    const type = await sniffFile(file);
    if (!isAudio(type)) throw new MediaRejectedError('The audio must be an MP3, M4A/AAC, OGG or WAV file.');
    try {
      const metadata = await parseFile(file, { duration: true, skipCovers: true });
      const seconds = metadata.format.duration;
      return { type, durationMs: seconds && Number.isFinite(seconds) ? Math.round(seconds * 1000) : null };
    } catch {
      throw new MediaRejectedError('The audio file is damaged or not a supported format.');
    }
  }

  /** Deletes media files by their stored paths; a cover key removes every size. Missing files are fine. */
  async remove(paths: Array<string | null | undefined>): Promise<void> {
    const files = paths.flatMap((path) => (path ? filesOf(path) : []));
    await Promise.all(files.map((file) => rm(this.resolve(file), { force: true })));
  }

  /**
   * Removes what a crash or an aborted upload may have left: everything under tmp/, and media files that no
   * row points to. Runs at boot, before the server accepts requests.
   */
  async sweep(referenced: Iterable<string>): Promise<number> {
    await rm(this.tempDir, { recursive: true, force: true });
    await this.ensureFolders();
    const keep = new Set([...referenced].flatMap(filesOf));
    let removed = 0;
    for (const file of await this.listFiles(this.mediaDir)) {
      const path = relative(this.mediaDir, file).split(sep).join('/');
      if (!keep.has(path)) {
        await rm(file, { force: true });
        removed++;
      }
    }
    if (removed > 0) this.logger.log(`Removed ${removed} media file(s) that no record points to`);
    return removed;
  }

  async exists(path: string): Promise<boolean> {
    return stat(this.resolve(path)).then(
      () => true,
      () => false,
    );
  }

  /** Only files this service's temp folder holds are taken in (and deleted afterwards), never any other path. */
  private assertTemp(file: string): void {
    if (dirname(file) !== this.tempDir)
      throw new Error(`Refusing to take in a file outside the temp folder: ${file}`);
  }

  private resolve(path: string): string {
    const full = join(this.mediaDir, path);
    if (!full.startsWith(this.mediaDir + sep))
      throw new Error(`Media path escapes the media folder: ${path}`);
    return full;
  }

  private async listFiles(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true });
    const nested = await Promise.all(
      entries.map((entry) => {
        const full = join(dir, entry.name);
        return entry.isDirectory() ? this.listFiles(full) : Promise.resolve([full]);
      }),
    );
    return nested.flat();
  }
}
