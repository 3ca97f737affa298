import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { espeakLanguages, referenceVoice } from '../alignment/voices';
import { ChaptersRepository } from '../../content/catalogue/repository/chapters.repository';
import { ImportLifecycle, type NewJob } from './import-lifecycle';
import { ImportStage } from './import-stage';
import { readChapterManifest, type ChapterManifest } from './manifests';
import { alignStaged } from './recording-alignment';

export interface JobTimings {
  /** How long a claim holds without renewal: a stopped instance's job is taken over after this. */
  leaseMs: number;
  /** How often a running job renews its lease and writes its progress. */
  renewMs: number;
  /** How often each instance looks for jobs nobody runs. */
  scanMs: number;
}

/** A first guess of a job's length, at this many times real time (the bench measured 96 to 124: docs/benchmarks.md). */
const GUESSED_SPEED = 60;

/**
 * Aligning a long recording, as a job (docs/import.md, "A long recording is aligned as a job"). The import
 * is staged 'aligning' and its job is held by one instance through a lease on the import's row (as the
 * audiobook builds are), renewed with the job's progress; a job whose instance stopped (its lease
 * released, or run out) is taken by the next instance that looks, so a job survives a restart. Each
 * instance runs one job at a time: alignment keeps a core busy.
 */
@Injectable()
export class AlignmentJobs implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AlignmentJobs.name);
  private readonly owner = `${hostname().slice(0, 30)}:${process.pid}:${randomBytes(6).toString('hex')}`;
  timings: JobTimings = { leaseMs: 60_000, renewMs: 2_000, scanMs: 30_000 };
  /** Recordings up to this long are aligned within the staging request (90 s: about 3 s of work). */
  inlineMaxMs: number;
  private running: Promise<void> | null = null;
  private abort: AbortController | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private again = false;
  /** Jobs this instance has finished (tests read it). */
  finished = 0;

  constructor(
    private readonly lifecycle: ImportLifecycle,
    private readonly stage: ImportStage,
    private readonly chapters: ChaptersRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.inlineMaxMs = config.alignInlineSeconds * 1000;
  }

  onApplicationBootstrap(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), this.timings.scanMs);
    this.timer.unref();
  }

  /** Stops the job under way and gives its lease up: another instance, or this one restarted, resumes it. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.abort?.abort('the server is stopping');
    await this.running;
  }

  /** Whether this recording is aligned as a job rather than within the request. */
  isLong(durationMs: number): boolean {
    return durationMs > this.inlineMaxMs;
  }

  /** The lease a new job starts with, held by this instance (which starts it as soon as it is free). */
  newJob(durationMs: number): NewJob {
    return {
      owner: this.owner,
      untilMs: Date.now() + this.timings.leaseMs,
      etaS: Math.ceil(durationMs / 1000 / GUESSED_SPEED) + 2,
    };
  }

  /**
   * Runs the jobs nobody runs, one after the other. While this instance is busy, the call is remembered:
   * a job staged just as the last look found none is run once the loop ends, not at the next scan.
   */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.again = false;
    this.running = this.runWaiting()
      .catch((error: unknown) => this.logger.error(`Alignment jobs failed: ${String(error)}`))
      .finally(() => {
        this.running = null;
        if (this.again) this.kick();
      });
  }

  /** Resolves once this instance runs no job (tests wait for it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async runWaiting(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      // Jobs this instance staged hold its lease already: it runs them as any other.
      const waiting = await this.lifecycle.waitingJobs(this.owner, Date.now());
      let ran = false;
      for (const id of waiting) {
        if (this.stopped) return;
        const now = Date.now();
        if (!(await this.lifecycle.claimJob(id, this.owner, now, now + this.timings.leaseMs))) continue;
        await this.run(id);
        ran = true;
        break;
      }
      if (!ran) return;
    }
  }

  /** One job: aligns, renewing the lease with the progress, and stages the result if it still holds it. */
  private async run(id: string): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    const started = Date.now();
    let percent = 0;
    const renew = setInterval(() => {
      const eta =
        percent > 0 ? Math.ceil(((Date.now() - started) / 1000) * ((100 - percent) / percent)) : null;
      void this.lifecycle
        .renewJob(id, this.owner, Date.now() + this.timings.leaseMs, percent, eta)
        .then((held) => held || abort.abort('the import was discarded or taken over'))
        .catch((error: unknown) => this.logger.warn(`Could not renew an alignment job: ${String(error)}`));
    }, this.timings.renewMs);
    renew.unref();
    try {
      const staged = await this.lifecycle.find(id);
      const manifest = readChapterManifest(staged.manifest);
      const result = await this.align(staged.chapterId, manifest, id, (p) => (percent = p), abort.signal);
      if (await this.lifecycle.finishJob(id, this.owner, result)) this.finished += 1;
    } catch (error) {
      if (abort.signal.aborted) {
        if (this.stopped) await this.lifecycle.releaseJob(id, this.owner).catch(() => undefined);
        return;
      }
      // Not the administrator's to fix by moving boundaries: named in the preview, the commit refused.
      this.logger.error(
        `Aligning import ${id} failed: ${error instanceof Error ? error.stack : String(error)}`,
      );
      const staged = await this.lifecycle.find(id).catch(() => null);
      if (!staged) return;
      const manifest = readChapterManifest(staged.manifest);
      await this.lifecycle.finishJob(id, this.owner, {
        ...manifest,
        errors: [
          ...manifest.errors,
          'The recording could not be aligned: the server failed (see its log). Discard the import and try again.',
        ],
      });
    } finally {
      clearInterval(renew);
      this.abort = null;
    }
  }

  private async align(
    chapterId: number | null,
    manifest: ChapterManifest,
    id: string,
    onPercent: (percent: number) => void,
    signal: AbortSignal,
  ): Promise<ChapterManifest> {
    const chapter = chapterId === null ? null : await this.chapters.withBook(chapterId);
    if (!chapter)
      return { ...manifest, errors: [...manifest.errors, 'The chapter of this import no longer exists.'] };
    // The voice chosen at staging: the book's language may have changed since.
    const voice =
      manifest.recording!.voice ??
      (chapter.book.language ? await referenceVoice(chapter.book.language) : null);
    if (!voice || !(await espeakLanguages()).has(voice))
      return {
        ...manifest,
        errors: [
          ...manifest.errors,
          `eSpeak NG cannot speak "${voice ?? chapter.book.language ?? ''}" on this server any more (is espeak-ng installed?): discard the import and import the recording again.`,
        ],
      };
    const source = await this.stage.localCopy(id, manifest.recording!.file);
    try {
      return await alignStaged(manifest, source.path, voice, (p) => onPercent(p.percent), signal);
    } finally {
      await source.release();
    }
  }
}
