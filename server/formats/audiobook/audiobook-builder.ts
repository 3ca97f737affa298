import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { MediaStore } from '../../media/store/media-store';
import type { AudiobookEdition } from '../audiobook-build.entity';
import { audiobookKey, clipCount, versionOfKey, type AudiobookContents } from './audiobook-contents';
import type { AudiobookLeases } from './audiobook-leases';
import { encodeM4b } from './m4b-encoder';

export interface BuildTimings {
  /** How long a claim holds without renewal: a crashed instance's build is taken over after this. */
  leaseMs: number;
  renewMs: number;
  /** After a failed build, no one tries again before this. */
  retryFailedMs: number;
}

type Current = (bookId: number, edition: AudiobookEdition) => Promise<AudiobookContents | null>;

/**
 * Runs the builds this instance has claimed, one at a time (two cores encode one book at full speed; a
 * second would only halve both), renewing each lease while it waits and works, and keeps the derived
 * store's `audiobooks/` free of files no row points to.
 */
export class AudiobookBuilder {
  private readonly logger = new Logger('Audiobooks');
  /** Names this process in leases: its host, its pid, and random bits (pids repeat across containers). */
  private readonly owner = `${hostname().slice(0, 30)}:${process.pid}:${randomBytes(6).toString('hex')}`;
  timings: BuildTimings = { leaseMs: 120_000, renewMs: 30_000, retryFailedMs: 5 * 60_000 };
  buildsRun = 0;
  private readonly running = new Map<string, Promise<void>>();
  private readonly aborts = new Set<AbortController>();
  private queue: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly leases: AudiobookLeases,
    private readonly media: MediaStore,
    private readonly derived: MediaStore,
    private readonly tempPath: () => string,
    private readonly current: Current,
  ) {}

  /**
   * Claims the build of `contents` and runs it in the background; resolves once the claim is decided.
   * Joins quietly when this instance already builds the edition or another holds the lease.
   */
  async start(contents: AudiobookContents): Promise<void> {
    const slot = `${contents.bookId}:${contents.edition}`;
    if (this.stopped || this.running.has(slot)) return;
    let decided!: () => void;
    const claimDecided = new Promise<void>((resolve) => (decided = resolve));
    const run = this.run(contents, decided)
      .catch((error: unknown) => {
        this.logger.error(`Audiobook build of ${slot} failed to run: ${String(error)}`);
        return null;
      })
      .then((next) => {
        this.running.delete(slot);
        // The book changed while it was built: make the version it has now.
        if (next && !this.stopped) void this.start(next);
      });
    this.running.set(slot, run);
    await claimDecided;
  }

  /** Stops every build (their leases are given back, so another instance may take over at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const abort of this.aborts) abort.abort('the server is stopping');
    await Promise.all(this.running.values());
  }

  /** Deletes files under `audiobooks/` that no row points to and no live lease is making. */
  async sweep(): Promise<void> {
    // Listed before the rows are read: a file stored after the listing is not looked at, and one stored
    // before it is either recorded by then or being finished under a live lease.
    const listed = await this.derived.list('audiobooks/');
    const { keys, building } = await this.leases.inUse(Date.now());
    const orphans = listed
      .map((object) => object.key)
      .filter((key) => !keys.has(key) && !building.has(versionOfKey(key) ?? ''));
    if (!orphans.length) return;
    await this.derived.delete(orphans);
    this.logger.log(`Removed ${orphans.length} audiobook file(s) that no build points to`);
  }

  /** Claims, builds, records; answers the book's newer contents when it changed meanwhile. */
  private async run(contents: AudiobookContents, decided: () => void): Promise<AudiobookContents | null> {
    const { bookId, edition, version } = contents;
    let row;
    try {
      const now = Date.now();
      const won = await this.leases.claim(
        bookId,
        edition,
        version,
        this.owner,
        now,
        now + this.timings.leaseMs,
      );
      row = won ? await this.leases.find(bookId, edition) : null;
    } finally {
      decided();
    }
    if (!row) return null;
    const id = row.id;
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
    try {
      await this.serially(() => this.build(contents, id, abort.signal));
    } catch (error) {
      if (this.stopped) await this.leases.release(id, this.owner);
      else if (!abort.signal.aborted) {
        const message = error instanceof Error ? error.message : String(error);
        this.logger.error(`Could not make the audiobook ${contents.bookCode} (${edition}): ${message}`);
        await this.leases.fail(id, this.owner, message, Date.now() + this.timings.retryFailedMs);
      }
      return null;
    } finally {
      clearInterval(renew);
      this.aborts.delete(abort);
    }
    await this.sweep().catch((error: unknown) => this.logger.warn(`Sweep failed: ${String(error)}`));
    const now = await this.current(bookId, edition);
    return now && now.version !== version && clipCount(now) > 0 ? now : null;
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
      if (done && done.replaced) await this.derived.delete([done.replaced]);
      this.logger.log(
        `Made ${key}: ${clipCount(contents)} clips, ${bytes} bytes in ${Date.now() - started} ms`,
      );
    } finally {
      await Promise.all(Object.values(files).map((file) => rm(file, { force: true })));
    }
  }
}
