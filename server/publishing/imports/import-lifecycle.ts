import {
  ConflictException,
  Injectable,
  Logger,
  NotFoundException,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, LessThan, type EntityManager, type Repository } from 'typeorm';
import { changedRows } from '../../platform/database/sql';
import { Clock } from '../../platform/common/clock';
import { ImportStage, STAGE_HOURS } from './import-stage';
import type { BookManifest, ChapterManifest } from './manifests';
import { StagedImport, type ImportKind, type ImportMode } from './staged-import.entity';

const HOUR = 3_600_000;
/** A commit that has said nothing for this long died with its process: the import is staged again. */
const STUCK_COMMIT_MS = 30 * 60_000;
const NOT_FOUND =
  'Import not found. It may have been committed or discarded, or have expired after 24 hours.';
const ID = /^[0-9a-f-]{36}$/;

/**
 * Staged imports are not in backups (their files live a day), so a restored database drops their rows:
 * they would name files that are gone. Run by `npm run restore` on the restored database, before any
 * server opens it.
 */
export const FORGET_STAGED_IMPORTS_SQL = 'DELETE FROM imports';

/** An import this commit holds: taken at `updatedAt`, which is how it proves it still holds it. */
export type TakenImport = StagedImport & { readonly status: 'committing' };

/** What staging found, written as the import's row. */
export interface NewImport {
  id: string;
  kind: ImportKind;
  chapterId: number | null;
  mode: ImportMode;
  createdBy: number;
  manifest: ChapterManifest | BookManifest;
}

/** A recording staged to be aligned by a job: who runs it first, until when, and a first guess of its length. */
export interface NewJob {
  owner: string;
  untilMs: number;
  etaS: number;
}

/**
 * The life of a staged import, and the only code that writes the `imports` table (docs/import.md, "What
 * the server guarantees"): (aligning →) staged → committing (taken by one commit) → removed when the commit ends, or
 * staged again when it fails or its process died; discarded or swept while staged. Every change is a
 * conditional write on the status (and, for a commit, on when it was taken), so two instances, or two
 * requests, never both win.
 */
@Injectable()
export class ImportLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ImportLifecycle.name);
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    @InjectRepository(StagedImport) private readonly imports: Repository<StagedImport>,
    private readonly db: DataSource,
    private readonly files: ImportStage,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => void this.sweep().catch((e) => this.logger.error(e)), HOUR);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async find(id: string): Promise<StagedImport> {
    const staged = ID.test(id) ? await this.imports.findOneBy({ id }) : null;
    if (!staged) throw new NotFoundException(NOT_FOUND);
    return staged;
  }

  /**
   * Writes the row of an import whose files are already in the store: a row never names missing files.
   * With a job, the import is 'aligning', held by the job's owner (alignment-jobs.ts).
   */
  async stage(found: NewImport, job?: NewJob): Promise<StagedImport> {
    const now = this.clock.now();
    const row: StagedImport = {
      ...found,
      status: job ? 'aligning' : 'staged',
      createdAt: now,
      updatedAt: now,
      manifest: JSON.stringify(found.manifest),
      progress: job ? 0 : null,
      etaS: job ? job.etaS : null,
      leaseOwner: job?.owner ?? null,
      leaseUntilMs: job?.untilMs ?? null,
    };
    await this.imports.insert(row);
    return row;
  }

  /**
   * Aligning imports `owner` may run: its own (staged by it, or left by a job it gave up) and those no
   * live lease holds (never claimed, or their instance stopped), oldest first.
   */
  async waitingJobs(owner: string, nowMs: number): Promise<string[]> {
    const rows = await this.imports
      .createQueryBuilder('i')
      .select('i.id')
      .where(
        "i.status = 'aligning' AND (i.lease_until_ms IS NULL OR i.lease_until_ms < :nowMs OR i.lease_owner = :owner)",
        { nowMs, owner },
      )
      .orderBy('i.created_at')
      .getMany();
    return rows.map((row) => row.id);
  }

  /** Takes an aligning import's job for `owner` when no other live lease holds it: one instance wins. */
  async claimJob(id: string, owner: string, nowMs: number, untilMs: number): Promise<boolean> {
    return (
      (await changedRows(
        this.db,
        `UPDATE imports SET lease_owner = ?, lease_until_ms = ?
          WHERE id = ? AND status = 'aligning'
            AND (lease_until_ms IS NULL OR lease_until_ms < ? OR lease_owner = ?)`,
        [owner, untilMs, id, nowMs, owner],
      )) === 1
    );
  }

  /**
   * Keeps the job's lease and says how far it is (the time left kept as it was while the job cannot tell
   * yet); false when the import is gone or another took it.
   */
  async renewJob(
    id: string,
    owner: string,
    untilMs: number,
    progress: number,
    etaS: number | null,
  ): Promise<boolean> {
    const eta = etaS === null ? '' : ', eta_s = ?';
    return (
      (await changedRows(
        this.db,
        `UPDATE imports SET lease_until_ms = ?, progress = ?${eta}
          WHERE id = ? AND status = 'aligning' AND lease_owner = ?`,
        [untilMs, progress, ...(etaS === null ? [] : [etaS]), id, owner],
      )) === 1
    );
  }

  /** The job's result: the import is staged with its aligned manifest, if this job still holds it. */
  async finishJob(id: string, owner: string, manifest: ChapterManifest): Promise<boolean> {
    const { affected } = await this.imports.update(
      { id, status: 'aligning', leaseOwner: owner },
      {
        status: 'staged',
        manifest: JSON.stringify(manifest),
        progress: null,
        etaS: null,
        leaseOwner: null,
        leaseUntilMs: null,
        updatedAt: this.clock.now(),
      },
    );
    return affected === 1;
  }

  /** Gives a job up unfinished (the server is stopping): the next instance to look takes it at once. */
  async releaseJob(id: string, owner: string): Promise<void> {
    await changedRows(
      this.db,
      `UPDATE imports SET lease_owner = NULL, lease_until_ms = NULL
        WHERE id = ? AND status = 'aligning' AND lease_owner = ?`,
      [id, owner],
    );
  }

  /** A new manifest (a recording's boundaries moved), only while the import is staged. */
  async updateManifest(staged: StagedImport, manifest: ChapterManifest): Promise<StagedImport> {
    const changes = { manifest: JSON.stringify(manifest), updatedAt: this.clock.now() };
    const { affected } = await this.imports.update({ id: staged.id, status: 'staged' }, changes);
    if (!affected) throw new NotFoundException('Import not found, or being committed.');
    return { ...staged, ...changes };
  }

  /**
   * Takes the import for one commit (staged → committing) by a conditional update, so a second commit sent
   * at the same moment finds it taken (409). An import left 'committing' by a process that died (its
   * transaction was rolled back) is taken over after 30 minutes.
   */
  async take(id: string): Promise<TakenImport> {
    const now = this.clock.now();
    const { affected } = await this.imports
      .createQueryBuilder()
      .update()
      .set({ status: 'committing', updatedAt: now })
      .where("id = :id AND (status = 'staged' OR (status = 'committing' AND updated_at < :stuck))", {
        id,
        stuck: new Date(now.getTime() - STUCK_COMMIT_MS),
      })
      .execute();
    if (!affected) throw new ConflictException('This import is already being committed.');
    // Read again now that it is ours: boundaries moved since the caller's first read are the ones to cut.
    const taken = await this.find(id);
    if (taken.status !== 'committing') throw new ConflictException('This import is already being committed.');
    return { ...taken, status: taken.status };
  }

  /** A failed commit gives the import back, staged, only if it still holds it: a takeover keeps it. */
  async release(taken: TakenImport): Promise<void> {
    await this.imports.update(
      { id: taken.id, status: 'committing', updatedAt: taken.updatedAt },
      { status: 'staged', updatedAt: this.clock.now() },
    );
  }

  /**
   * Ends a commit by removing the import inside the commit's own transaction, only if this commit still
   * holds it: a commit that took over a stuck one makes this one roll back (409), so an import is never
   * added twice. The caller removes the files once the transaction has committed.
   */
  async finish(taken: TakenImport, tx: EntityManager): Promise<void> {
    const { affected } = await tx.delete(StagedImport, {
      id: taken.id,
      status: 'committing',
      updatedAt: taken.updatedAt,
    });
    if (!affected) throw new ConflictException('This import was taken over by another commit.');
  }

  /** Removes a staged import (or one being aligned: its job stops) and its files; one being committed stays (409). */
  async discard(id: string): Promise<void> {
    const staged = await this.find(id);
    const { affected } = await this.imports.delete({ id: staged.id, status: In(['staged', 'aligning']) });
    if (!affected)
      throw new ConflictException('This import is being committed and can no longer be discarded.');
    await this.files.remove(staged.id);
  }

  /**
   * Removes imports staged more than 24 hours ago, with their files, and folders that no import row
   * owns (an upload cut short by a crash) once they are as old. Nothing younger is touched. A commit
   * stuck in 'committing' (its process died) becomes staged again: its transaction was rolled back.
   */
  async sweep(): Promise<void> {
    const now = this.clock.now().getTime();
    const expired = new Date(now - STAGE_HOURS * HOUR);
    await this.imports.update(
      { status: 'committing', updatedAt: LessThan(new Date(now - STUCK_COMMIT_MS)) },
      { status: 'staged' },
    );
    const old = await this.imports.find({ select: { id: true }, where: { createdAt: LessThan(expired) } });
    for (const { id } of old) {
      // An import being committed keeps its files until the commit ends.
      const { affected } = await this.imports.delete({ id, status: In(['staged', 'aligning']) });
      if (affected) await this.files.remove(id);
    }
    const live = await this.imports.find({ select: { id: true } });
    const removed = await this.files.sweep(expired, new Set(live.map((row) => row.id)));
    if (old.length || removed) this.logger.log(`Swept ${old.length + removed} expired import(s)`);
  }
}
