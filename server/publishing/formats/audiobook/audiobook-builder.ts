import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { MediaStore } from '../../../platform/media/store/media-store';
import type { AudiobookEdition } from '../audiobook-build.entity';
import {
  audiobookKey,
  clipCount,
  estimateSeconds,
  versionOfKey,
  type AudiobookContents,
} from './audiobook-contents';
import type { AudiobookLeases } from './audiobook-leases';
import { encodeM4b } from './m4b-encoder';

export interface BuildTimings {
  /** How long a claim holds without renewal: a crashed instance's build is taken over after this. */
  leaseMs: number;
  renewMs: number;
  /** After a failed build, no one tries that version again before this. */
  retryFailedMs: number;
  /** A build running longer than this (a hung encoder or download) is stopped and recorded as failed. */
  deadlineMs: (contents: AudiobookContents) => number;
  /** Files younger than this are never swept: another instance may be storing them under its lease. */
  sweepMinAgeMs: number;
  /** A replaced file is deleted this long after (a download may still be reading it). */
  replacedGraceMs: number;
}

type Current = (bookId: number, edition: AudiobookEdition) => Promise<AudiobookContents | null>;

const TOO_LONG = 'the build took too long (the encoder or a download hung)';

/**
 * Runs this instance's builds one at a time (two cores encode one book at full speed; a second would only
 * halve both). A build waits its turn as an in-memory entry only: it reads the book's contents and claims
 * the lease when its turn comes, so a queued build neither holds others back nor encodes stale contents.
 * Keeps the derived store's `audiobooks/` free of files no row points to.
 */
export class AudiobookBuilder {
  private readonly logger = new Logger('Audiobooks');
  /** Names this process in leases: its host, its pid, and random bits (pids repeat across containers). */
  private readonly owner = `${hostname().slice(0, 30)}:${process.pid}:${randomBytes(6).toString('hex')}`;
  timings: BuildTimings = {
    leaseMs: 120_000,
    renewMs: 30_000,
    retryFailedMs: 5 * 60_000,
    deadlineMs: (contents) => 10 * estimateSeconds(contents) * 1000 + 5 * 60_000,
    sweepMinAgeMs: 120_000,
    replacedGraceMs: 10 * 60_000,
  };
  buildsRun = 0;
  private readonly running = new Map<string, Promise<void>>();
  private readonly aborts = new Set<AbortController>();
  private queue: Promise<unknown> = Promise.resolve();
  private stopped = false;
  /** Files this instance replaced, kept until their grace period ends (the sweep leaves them alone). */
  private readonly retiring = new Set<string>();

  constructor(
    private readonly leases: AudiobookLeases,
    private readonly media: MediaStore,
    private readonly derived: MediaStore,
    private readonly tempPath: () => string,
    private readonly current: Current,
  ) {}

  /** Queues a build of the edition (of its contents when its turn comes); joins one already queued. */
  start(contents: AudiobookContents): void {
    const { bookId, edition } = contents;
    const slot = `${bookId}:${edition}`;
    if (this.stopped || this.running.has(slot)) return;
    const run = (async () => {
      // Again while the book changed during a build (or its build failed and it was fixed meanwhile).
      while (await this.serially(() => this.attempt(bookId, edition)));
    })()
      .catch((error: unknown) =>
        this.logger.error(`Audiobook build of ${slot} failed to run: ${String(error)}`),
      )
      .finally(() => this.running.delete(slot));
    this.running.set(slot, run);
  }

  /** Stops every build (their leases are given back, so another instance may take over at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const abort of this.aborts) abort.abort('the server is stopping');
    await Promise.all(this.running.values());
  }

  /** Deletes M4Bs under `audiobooks/` that no row points to, no live lease is making, and are not new. */
  async sweep(): Promise<void> {
    // Listed before the rows are read: a file stored after the listing is not looked at, and one stored
    // before it is either recorded by then or being finished under a live lease.
    const listed = await this.derived.list('audiobooks/');
    const now = Date.now();
    const { keys, building } = await this.leases.inUse(now);
    const orphans = listed
      .filter((object) => now - object.lastModified.getTime() >= this.timings.sweepMinAgeMs)
      .map((object) => object.key)
      // Only finished M4Bs: a local store's `….m4b.<hex>.part` is an upload under way.
      .filter((key) => versionOfKey(key) !== null && !keys.has(key) && !building.has(versionOfKey(key)!))
      .filter((key) => !this.retiring.has(key));
    if (!orphans.length) return;
    await this.derived.delete(orphans);
    this.logger.log(`Removed ${orphans.length} audiobook file(s) that no build points to`);
  }

  /**
   * One turn: reads the edition as it is now, claims it, builds, records. True when the book changed
   * meanwhile (or failed and was fixed meanwhile): the caller takes another turn for its new contents.
   */
  private async attempt(bookId: number, edition: AudiobookEdition): Promise<boolean> {
    if (this.stopped) return false;
    const contents = await this.current(bookId, edition);
    if (!contents || clipCount(contents) === 0) return false;
    const { version } = contents;
    const before = await this.leases.find(bookId, edition);
    // Made meanwhile (by another instance, or a build of the same version queued twice).
    if (before?.fileKey && before.version === version) return false;
    const now = Date.now();
    if (!(await this.leases.claim(bookId, edition, version, this.owner, now, now + this.timings.leaseMs)))
      return false;
    const row = await this.leases.find(bookId, edition);
    if (!row) return false;
    const id = row.id;
    // Stopped while the claim was on its way: give it back rather than start a build.
    if (this.stopped) {
      await this.leases.release(id, this.owner);
      return false;
    }
    this.buildsRun += 1;
    const abort = new AbortController();
    this.aborts.add(abort);
    const renew = setInterval(() => {
      this.leases
        .renew(id, this.owner, version, Date.now() + this.timings.leaseMs)
        .then((held) => held || abort.abort('the lease was taken over'))
        .catch((error: unknown) => this.logger.warn(`Could not renew an audiobook lease: ${String(error)}`));
    }, this.timings.renewMs);
    renew.unref();
    let timedOut = false;
    const watchdog = setTimeout(() => {
      timedOut = true;
      abort.abort(TOO_LONG);
    }, this.timings.deadlineMs(contents));
    watchdog.unref();
    try {
      await this.build(contents, id, abort.signal);
      await this.sweep().catch((error: unknown) => this.logger.warn(`Sweep failed: ${String(error)}`));
    } catch (error) {
      if (this.stopped) {
        await this.leases.release(id, this.owner);
        return false;
      }
      // A lost lease: the new holder makes the book.
      if (abort.signal.aborted && !timedOut) return false;
      const message = timedOut ? TOO_LONG : error instanceof Error ? error.message : String(error);
      this.logger.error(`Could not make the audiobook ${contents.bookCode} (${edition}): ${message}`);
      await this.leases.fail(id, this.owner, version, message, Date.now() + this.timings.retryFailedMs);
    } finally {
      clearInterval(renew);
      clearTimeout(watchdog);
      this.aborts.delete(abort);
    }
    if (this.stopped) return false;
    const after = await this.current(bookId, edition);
    return !!after && after.version !== version && clipCount(after) > 0;
  }

  /** Deletes a replaced file once its grace period ends (at the next boot's sweep if the app stops first). */
  private retire(key: string): void {
    this.retiring.add(key);
    const timer = setTimeout(() => {
      this.retiring.delete(key);
      this.derived
        .delete([key])
        .catch((error: unknown) => this.logger.warn(`Could not delete ${key}: ${String(error)}`));
    }, this.timings.replacedGraceMs);
    timer.unref();
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async build(contents: AudiobookContents, id: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw new Error(String(signal.reason));
    const base = this.tempPath();
    const files = {
      audio: `${base}-audio.m4a`,
      metadata: `${base}-chapters.txt`,
      cover: `${base}-cover.jpg`,
      output: `${base}.m4b`,
    };
    const started = Date.now();
    try {
      await encodeM4b(contents, this.media, files, signal);
      const bytes = (await stat(files.output)).size;
      const key = audiobookKey(contents);
      await this.derived.put(key, files.output, 'audio/mp4');
      const done = await this.leases.finish(id, this.owner, contents.version, key, bytes);
      // A lost lease leaves the file to the sweep: the new holder may be storing the same key.
      if (done && done.replaced) this.retire(done.replaced);
      this.logger.log(
        `Made ${key}: ${clipCount(contents)} clips, ${bytes} bytes in ${Date.now() - started} ms`,
      );
    } finally {
      await Promise.all(Object.values(files).map((file) => rm(file, { force: true })));
    }
  }
}
