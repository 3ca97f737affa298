import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, MoreThan, type Repository } from 'typeorm';
import { InFlight } from '../../platform/common/in-flight';
import { FfmpegError, ffmpegInput, runFfmpeg } from '../imports/ffmpeg';
import type { AudioLengths } from '../../platform/media/audio-lengths';
import { DERIVED_STORE, MEDIA_STORE } from '../../platform/media/store/create-stores';
import { MediaRejectedError, UNREADABLE_AUDIO } from '../../platform/media/upload-checks';
import type { MediaStore } from '../../platform/media/store/media-store';
import { AudioMeasure } from './audio-measure.entity';

/** Which store a measured key lives in (docs/formats.md "Exact lengths"). */
export type MeasuredStore = 'media' | 'derived';

/**
 * ffmpeg ran but could not decode the file as audio (not audio, no audio stream, truncated beyond use).
 * Callers turn it into a clear message naming the clip (a 422 for an upload, a 409/503-like answer for a
 * download), never a 500. ffmpeg being absent is an FfmpegError('missing') instead: callers answer 503.
 */
export class UndecodableAudioError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`This audio could not be decoded: ${file}${detail ? ` (${detail})` : ''}`);
    this.name = 'UndecodableAudioError';
  }
}

/** Sample bytes of one channel of s16le. */
const BYTES_PER_SAMPLE = 2;
/** A WAV header holds fmt and a few small chunks: more than this before `data` means it is not ours. */
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Reads ffmpeg's WAV on a pipe: the header gives the file's own sample rate (no resampling, so no rounding
 * of the count), then every byte after the `data` chunk's header is a sample. The data size field is
 * ignored: on a pipe ffmpeg cannot go back to fill it in.
 */
class WavCounter {
  private header = Buffer.alloc(0);
  private rate = 0;
  private dataBytes = -1;

  constructor(private readonly file: string) {}

  push(chunk: Buffer): void {
    if (this.dataBytes >= 0) {
      this.dataBytes += chunk.length;
      return;
    }
    this.header = Buffer.concat([this.header, chunk]);
    let at = 12;
    while (at + 8 <= this.header.length) {
      const id = this.header.toString('latin1', at, at + 4);
      const size = this.header.readUInt32LE(at + 4);
      if (id === 'data') {
        this.dataBytes = this.header.length - (at + 8);
        this.header = Buffer.alloc(0);
        return;
      }
      if (id === 'fmt ' && at + 16 <= this.header.length) this.rate = this.header.readUInt32LE(at + 12);
      at += 8 + size + (size % 2);
    }
    if (this.header.length > MAX_HEADER_BYTES)
      throw new UndecodableAudioError(this.file, 'no WAV data from ffmpeg');
  }

  /** Microseconds, or null when ffmpeg produced no audio at all. */
  lengthUs(): number | null {
    if (this.dataBytes < 0 || this.rate <= 0) return null;
    const samples = Math.floor(this.dataBytes / BYTES_PER_SAMPLE);
    // A clip of no samples would be a 0 µs cue: it is not playable audio.
    if (samples === 0) return null;
    return Math.round((samples * 1_000_000) / this.rate);
  }
}

/**
 * A local file's length as decoding its first audio stream gives, in microseconds: the samples ffmpeg
 * decodes (mono, 16-bit, at the file's own rate) over that rate. Not the container's figure, which may be
 * missing or count encoder padding. Rejects with FfmpegError('missing') without ffmpeg, FfmpegError
 * ('timeout') after 5 minutes, UndecodableAudioError when the file is not decodable audio.
 */
export async function decodedLengthUs(file: string): Promise<number> {
  const counter = new WavCounter(file);
  try {
    await runFfmpeg(
      [
        '-v',
        'error',
        '-i',
        ffmpegInput(file),
        '-map',
        '0:a:0',
        '-ac',
        '1',
        '-c:a',
        'pcm_s16le',
        '-map_metadata',
        '-1',
        '-fflags',
        '+bitexact',
        '-f',
        'wav',
        'pipe:1',
      ],
      { onStdout: (chunk) => counter.push(chunk) },
    );
  } catch (error) {
    if (error instanceof FfmpegError && error.kind === 'failed') {
      throw new UndecodableAudioError(file, lastLine(error.stderr));
    }
    throw error;
  }
  const us = counter.lengthUs();
  if (us === null) throw new UndecodableAudioError(file, 'no audio decoded');
  return us;
}

/**
 * `detail` with the local file's path (as given to ffmpeg, `file:/srv/…`) replaced by the store key: error
 * messages reach clients, and the server's folders are none of theirs.
 */
export function hidePath(detail: string, file: string, key: string): string {
  const input = ffmpegInput(file);
  return detail.split(input).join(key).split(input.slice('file:'.length)).join(key).split(file).join(key);
}

/** ffmpeg at once in the whole process for measuring and transcoding: the server's other work goes on. */
const FFMPEG_SLOTS = 2;
let slotsInUse = 0;
const waiting: (() => void)[] = [];

/**
 * Runs `task` when one of the process's FFMPEG_SLOTS is free (N downloads at once run at most two ffmpeg
 * measuring or transcoding, not 2N). A task must not wait for another slot inside its own.
 */
export async function withFfmpegSlot<T>(task: () => Promise<T>): Promise<T> {
  if (slotsInUse >= FFMPEG_SLOTS) await new Promise<void>((done) => waiting.push(done));
  else slotsInUse++;
  try {
    return await task();
  } finally {
    // The slot passes straight to the next waiter, so the count never dips below what is running.
    const next = waiting.shift();
    if (next) next();
    else slotsInUse--;
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split(/\r\n|\r|\n/);
  return (lines[lines.length - 1] ?? '').slice(0, 200);
}

/** Keys per IN query: well under SQLite's 999 and PostgreSQL's 65,535 parameters. */
const IN_CHUNK = 500;
/** Keys a call starts at once; ffmpeg itself is limited process-wide by withFfmpegSlot. */
const MEASURE_CONCURRENCY = 2;

/**
 * Runs `task` over `items`, at most `limit` at once; rejects with the first failure (others finish). Once
 * `signal` is aborted no further item is taken, and it rejects with the signal's reason.
 */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (next < items.length && !failure && !signal?.aborted) {
      const item = items[next++];
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
  signal?.throwIfAborted();
}

/**
 * Lengths of stored files, kept in `audio_measures` (the only writer of that table). A media key is random
 * and never reused, so its kept length never goes stale; a derived file is remade under its key, and
 * whoever writes it records its length with `record` (docs/formats.md "Exact lengths").
 */
@Injectable()
export class AudioMeasures implements AudioLengths {
  /** Measurements under way, by `<store>:<key>`: a second request for the same file waits for the first. */
  private readonly running = new InFlight<number>();

  constructor(
    @InjectRepository(AudioMeasure) private readonly measures: Repository<AudioMeasure>,
    @Inject(MEDIA_STORE) private readonly media: MediaStore,
    @Inject(DERIVED_STORE) private readonly derived: MediaStore,
  ) {}

  /**
   * key → decoded microseconds, for every key given. Rejects with FfmpegError('missing') when the server
   * has no ffmpeg (callers answer 503), UndecodableAudioError for a file that is not audio, and
   * ObjectNotFoundError for a key with no object.
   */
  async lengths(
    keys: readonly string[],
    store: MeasuredStore = 'media',
    signal?: AbortSignal,
  ): Promise<Map<string, number>> {
    const unique = [...new Set(keys)];
    const found = new Map<string, number>();
    for (let i = 0; i < unique.length; i += IN_CHUNK) {
      const rows = await this.measures.find({
        where: { audioKey: In(unique.slice(i, i + IN_CHUNK).map((key) => `${store}:${key}`)) },
      });
      for (const row of rows) found.set(row.audioKey.slice(store.length + 1), row.decodedUs);
    }
    const missing = unique.filter((key) => !found.has(key));
    await eachLimited(
      missing,
      MEASURE_CONCURRENCY,
      async (key) => {
        found.set(key, await this.measureOnce(store, key));
      },
      signal,
    );
    const result = new Map<string, number>();
    for (const key of keys) result.set(key, found.get(key)!);
    return result;
  }

  /**
   * An upload's decoded length (MediaService.storeAudio, as AUDIO_LENGTHS): null when ffmpeg is missing or
   * out of time (the upload keeps the container's figure; MeasureAhead measures it later), a refusal the
   * uploader reads when ffmpeg cannot decode it (every export would fail on it).
   */
  async measureFile(file: string): Promise<number | null> {
    try {
      return await withFfmpegSlot(() => decodedLengthUs(file));
    } catch (error) {
      if (error instanceof UndecodableAudioError) throw new MediaRejectedError(UNREADABLE_AUDIO);
      if (error instanceof FfmpegError && (error.kind === 'missing' || error.kind === 'timeout')) return null;
      throw error;
    }
  }

  /** Keeps a just-stored media key's length (a new random key: nobody else has measured it). */
  keepMedia(key: string, decodedUs: number): Promise<void> {
    return this.keep(`media:${key}`, decodedUs);
  }

  /**
   * Records the length of a file just written to the derived store under `key` (replacing any kept one:
   * the file may have been remade, by another instance or another ffmpeg).
   */
  async record(key: string, decodedUs: number, store: MeasuredStore = 'derived'): Promise<void> {
    // A file remade under its key is new: its row's age starts again (the derived sweep reads it).
    await this.measures.upsert({ audioKey: `${store}:${key}`, decodedUs, measuredAt: new Date() }, [
      'audioKey',
    ]);
  }

  /**
   * The kept rows' keys (`<store>:<key>`) in key order, `limit` after `after`: how the derived store's
   * sweep (derived-sweep.ts) walks the table without loading it whole.
   */
  async keptAfter(after: string, limit: number): Promise<Array<{ audioKey: string; measuredAt: Date }>> {
    return this.measures.find({
      select: { audioKey: true, measuredAt: true },
      where: after ? { audioKey: MoreThan(after) } : {},
      order: { audioKey: 'ASC' },
      take: limit,
    });
  }

  /** Forgets lengths (`<store>:<key>`) of files that are gone; one asked for again is measured again. */
  async forget(audioKeys: readonly string[]): Promise<void> {
    for (let i = 0; i < audioKeys.length; i += IN_CHUNK)
      await this.measures.delete({ audioKey: In(audioKeys.slice(i, i + IN_CHUNK)) });
  }

  private measureOnce(store: MeasuredStore, key: string): Promise<number> {
    return this.running.run(`${store}:${key}`, () => this.measure(store, key));
  }

  private async measure(store: MeasuredStore, key: string): Promise<number> {
    const files = store === 'media' ? this.media : this.derived;
    const us = await withFfmpegSlot(async () => {
      const copy = await files.localCopy(key);
      try {
        return await decodedLengthUs(copy.path);
      } catch (error) {
        // Name the key, not the temporary copy's path.
        if (!(error instanceof UndecodableAudioError)) throw error;
        throw new UndecodableAudioError(key, hidePath(error.detail, copy.path, key));
      } finally {
        await copy.release();
      }
    });
    await this.keep(`${store}:${key}`, us);
    return us;
  }

  /** Another request (or instance) may have kept the same file's length at the same time: it is the same. */
  private async keep(audioKey: string, decodedUs: number): Promise<void> {
    // ON CONFLICT DO NOTHING (PostgreSQL) / INSERT OR IGNORE (SQLite): no unique violation, which would
    // abort a surrounding PostgreSQL transaction.
    await this.measures
      .createQueryBuilder()
      .insert()
      .into(AudioMeasure)
      .values({ audioKey, decodedUs })
      .orIgnore()
      .execute();
  }
}
