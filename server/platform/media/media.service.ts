import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { APP_CONFIG, type AppConfig } from '../config';
import { COVER_RATIO, COVER_WIDTHS, coverFile, filesOf } from './media-urls';
import { AUDIO_EXTENSIONS, isImage, sniffFile, type AudioType } from './sniff';
import {
  coverDecoder,
  MediaRejectedError,
  NOT_AN_IMAGE,
  probeAudioFile,
  UNREADABLE_IMAGE,
} from './upload-checks';
import { AUDIO_LENGTHS, msOfUs, type AudioLengths } from './audio-lengths';
import { MediaTrash } from './media-trash';
import { MEDIA_STORE } from './store/create-stores';
import { contentTypeOf, type MediaStore } from './store/media-store';
export type AudioKind = 'samples' | 'lines';

export interface StoredAudio {
  path: string;
  /** The decoded length (audio-lengths.ts), or the container's figure until it is measured. */
  durationMs: number | null;
}

/**
 * When a stored clip's decoded length is measured: `now`, before the upload is answered (one clip, a few
 * tens of milliseconds), or `later`, by the background measuring after the edit (MeasureAhead), for
 * imports that store hundreds of clips in one request. `{ decodedUs }` is a length measured before: only
 * the demo seed's, whose files ship with theirs (server/seed/demo/lengths.json, checked by
 * server/seed/demo-lengths.spec.ts), so a first start does not decode a hundred clips.
 */
export type MeasureWhen = 'now' | 'later' | { decodedUs: number };

export { MediaRejectedError };

const TEMP_PREFIX = 'tmp';

const randomName = () => randomBytes(16).toString('hex');

/**
 * The sweep leaves younger objects alone: another instance may be between storing a file and committing
 * the row that points to it.
 */
export const SWEEP_MIN_AGE_MS = 3_600_000;

/**
 * The only place that takes uploaded files in. New media is checked and processed on a local file under
 * tmp/, then handed to the media store (a rename into STORAGE_DIR/media, or an upload to the bucket), so a
 * crash never leaves a half-written file in use. Rows keep only the keys.
 */
@Injectable()
export class MediaService {
  private readonly logger = new Logger(MediaService.name);
  /** Local to this instance, whatever the store: uploads on their way in. */
  readonly tempDir: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(MEDIA_STORE) readonly store: MediaStore,
    private readonly trash: MediaTrash,
    @Inject(AUDIO_LENGTHS) private readonly lengths: AudioLengths,
  ) {
    this.tempDir = join(config.storageDir, TEMP_PREFIX);
  }

  async ensureFolders(): Promise<void> {
    await mkdir(this.tempDir, { recursive: true });
  }

  /** A fresh path under the temp folder, for an upload or a copy on its way in. */
  tempPath(): string {
    return join(this.tempDir, randomName());
  }

  /** Re-encodes an image into the cover sizes (metadata stripped) and returns the cover's key. */
  async storeCover(tempFile: string): Promise<string> {
    this.assertTemp(tempFile);
    if (!isImage(await sniffFile(tempFile))) throw new MediaRejectedError(NOT_AN_IMAGE);
    const key = `covers/${randomName()}`;
    const sizes = COVER_WIDTHS.map((width) => ({ key: coverFile(key, width), width, file: this.tempPath() }));
    try {
      try {
        const source = coverDecoder(tempFile);
        for (const size of sizes)
          await source
            .clone()
            .resize(size.width, Math.round(size.width * COVER_RATIO), {
              fit: 'cover',
              position: sharp.strategy.attention,
            })
            .webp({ quality: 78 })
            .toFile(size.file);
      } catch {
        throw new MediaRejectedError(UNREADABLE_IMAGE);
      }
      // Encoded first, stored after: a store that fails is ours (a 503), never the uploader's image.
      const stored: string[] = [];
      try {
        for (const size of sizes) {
          stored.push(size.key);
          await this.store.put(size.key, size.file, 'image/webp');
        }
      } catch (error) {
        await this.store.delete(stored).catch(() => undefined);
        throw error;
      }
      return key;
    } finally {
      await Promise.all(
        [tempFile, ...sizes.map((size) => size.file)].map((file) => rm(file, { force: true })),
      );
    }
  }

  /**
   * Stores a checked audio file under <kind>/ with its length: decoded by ffmpeg when `measure` is `now`,
   * or the one given (both kept for the exports), else the container's figure, which the background
   * measuring replaces (docs/formats.md "Exact lengths").
   */
  async storeAudio(tempFile: string, kind: AudioKind, measure: MeasureWhen = 'now'): Promise<StoredAudio> {
    this.assertTemp(tempFile);
    try {
      const { type, durationMs } = await this.probeAudio(tempFile);
      const decodedUs =
        measure === 'now'
          ? await this.lengths.measureFile(tempFile)
          : measure === 'later'
            ? null
            : measure.decodedUs;
      const path = `${kind}/${randomName()}.${AUDIO_EXTENSIONS[type]}`;
      await this.store.put(path, tempFile, contentTypeOf(path));
      if (decodedUs === null) return { path, durationMs };
      // Only a cache for the exports: should it fail, the background measuring keeps it later.
      await this.lengths
        .keepMedia(path, decodedUs)
        .catch((error: unknown) =>
          this.logger.warn(`Could not keep the length of ${path}: ${String(error)}`),
        );
      return { path, durationMs: msOfUs(decodedUs) };
    } finally {
      await rm(tempFile, { force: true });
    }
  }

  /** What an audio file is, by its content, and how long it lasts (upload-checks.ts). */
  probeAudio(file: string): Promise<{ type: AudioType; durationMs: number | null }> {
    return probeAudioFile(file);
  }

  /**
   * Lets go of media a committed row pointed to (replaced or deleted): the files are kept for an hour, so
   * a backup whose snapshot still names them can copy them, then MediaTrash deletes them for good. A cover
   * key stands for every size.
   */
  async remove(paths: Array<string | null | undefined>): Promise<void> {
    await this.trash.add(paths.flatMap((path) => (path ? filesOf(path) : [])));
  }

  /**
   * Deletes at once files that no committed row ever pointed to (an upload whose request failed), so a
   * failed request leaves nothing behind. Missing files are fine.
   */
  async discard(paths: Array<string | null | undefined>): Promise<void> {
    await this.store.delete(paths.flatMap((path) => (path ? filesOf(path) : [])));
  }

  /**
   * Removes what a crash or an aborted upload may have left: everything under this instance's tmp/, and
   * stored media that no row points to, once it is an hour old (`now` moves in tests). Files in the trash
   * are left to MediaTrash, which keeps them their full hour after the delete, however old the file is.
   * Runs at boot, before the server accepts requests.
   */
  async sweep(referenced: Iterable<string>, now = new Date(), minAgeMs = SWEEP_MIN_AGE_MS): Promise<number> {
    await rm(this.tempDir, { recursive: true, force: true });
    await this.ensureFolders();
    const keep = new Set([...referenced, ...(await this.trash.keys())].flatMap(filesOf));
    const orphans = (await this.store.list(''))
      .filter((object) => !keep.has(object.key))
      .filter((object) => now.getTime() - object.lastModified.getTime() >= minAgeMs)
      .map((object) => object.key);
    await this.store.delete(orphans);
    if (orphans.length > 0)
      this.logger.log(`Removed ${orphans.length} media file(s) that no record points to`);
    return orphans.length;
  }

  async exists(path: string): Promise<boolean> {
    return (await this.store.head(path)) !== null;
  }

  /** A stored file's bytes, for the exports' zips. */
  read(path: string): Promise<Readable> {
    return this.store.read(path);
  }

  /** Only files this service's temp folder holds are taken in (and deleted afterwards), never any other path. */
  private assertTemp(file: string): void {
    if (dirname(file) !== this.tempDir)
      throw new Error(`Refusing to take in a file outside the temp folder: ${file}`);
  }
}
