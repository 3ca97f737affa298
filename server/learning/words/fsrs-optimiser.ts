import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../platform/common/clock';
import { dateFromDb, dateToDb } from '../../platform/database/db-dates';
import { changedRows, sql } from '../../platform/database/sql';
import { MAX_TRAINING_REVIEWS, MIN_REVIEWS, trainingItems, type TrainingReview } from './fsrs-training';

/** How often members are looked at; each is computed at most once a week. */
const SCAN_MS = 60 * 60_000;
export const RECOMPUTE_AFTER_MS = 7 * 86_400_000;
/** A claim outlives any computation (50,000 reviews take seconds). */
const CLAIM_MS = 10 * 60_000;
/** Members computed per scan: the work is CPU-bound, in the optimiser's own threads. */
const PER_SCAN = 20;
/** The weights FSRS-6 (ts-fsrs 5) takes: anything else is refused and the defaults kept. */
const WEIGHTS = 21;

/** The optimiser's few calls this job makes (@open-spaced-repetition/binding, MIT). */
interface Binding {
  FSRSBindingReview: new (rating: number, deltaT: number) => unknown;
  FSRSBindingItem: new (reviews: unknown[]) => unknown;
  computeParameters(
    items: unknown[],
    options: { enableShortTerm: boolean; timeout?: number },
  ): Promise<number[]>;
}

/** Loaded when first needed: a platform without its prebuilt binary keeps the defaults (docs/practice.md). */
const BINDING = '@open-spaced-repetition/binding';

/**
 * A member's own FSRS parameters (docs/practice.md, "Your own FSRS"): once they have MIN_REVIEWS reviews,
 * the optimiser computes weights from their review log, in the background, at most weekly; until then
 * (and wherever the optimiser cannot run) FSRS's defaults schedule their reviews. Each member is claimed by
 * a conditional write, so two instances never compute the same one.
 */
@Injectable()
export class FsrsOptimiser implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(FsrsOptimiser.name);
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopping = false;
  private binding: Promise<Binding | null> | undefined;

  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.scan(), SCAN_MS);
    this.timer.unref();
    void this.scan();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Computes the members who are due now; answers how many got their own parameters (tests call it). */
  scan(): Promise<number> {
    const next = this.running
      .then(() => this.computeDue())
      .catch((error: unknown) => {
        this.logger.warn(`FSRS optimisation failed: ${String(error)}`);
        return 0;
      });
    this.running = next;
    return next;
  }

  private async computeDue(): Promise<number> {
    const now = this.clock.now();
    const due = await sql<Array<{ user_id: number | string }>>(
      this.db,
      `SELECT l.user_id AS user_id FROM review_logs l
         LEFT JOIN fsrs_parameters p ON p.user_id = l.user_id
        WHERE p.user_id IS NULL OR p.computed_at IS NULL OR p.computed_at < ?
        GROUP BY l.user_id HAVING COUNT(*) >= ? ORDER BY l.user_id LIMIT ${PER_SCAN}`,
      [dateToDb(this.db, new Date(now.getTime() - RECOMPUTE_AFTER_MS)), MIN_REVIEWS],
    );
    let computed = 0;
    for (const { user_id } of due) {
      if (this.stopping) break;
      if (await this.compute(Number(user_id), now)) computed++;
    }
    return computed;
  }

  /** One member: claimed, their log read, the weights computed and kept (or the defaults kept). */
  private async compute(userId: number, now: Date): Promise<boolean> {
    // The member's row first, then the claim: a conditional UPDATE, whose count both drivers give.
    await sql(
      this.db,
      'INSERT INTO fsrs_parameters (user_id, reviews) VALUES (?, 0) ON CONFLICT (user_id) DO NOTHING',
      [userId],
    );
    const claimed = await changedRows(
      this.db,
      `UPDATE fsrs_parameters SET claimed_until = ?
        WHERE user_id = ? AND (claimed_until IS NULL OR claimed_until < ?)
          AND (computed_at IS NULL OR computed_at < ?)`,
      [
        dateToDb(this.db, new Date(now.getTime() + CLAIM_MS)),
        userId,
        dateToDb(this.db, now),
        dateToDb(this.db, new Date(now.getTime() - RECOMPUTE_AFTER_MS)),
      ],
    );
    if (!claimed) return false;
    let weights: number[] | null = null;
    let reviews = 0;
    try {
      const [user] = await sql<Array<{ time_zone: string | null }>>(
        this.db,
        'SELECT time_zone FROM users WHERE id = ?',
        [userId],
      );
      const logs = await sql<
        Array<{ word_id: number | string; rating: number | string; reviewed_at: Date | string }>
      >(
        this.db,
        `SELECT word_id, rating, reviewed_at FROM review_logs WHERE user_id = ?
          ORDER BY reviewed_at DESC LIMIT ${MAX_TRAINING_REVIEWS}`,
        [userId],
      );
      reviews = logs.length;
      const items = trainingItems(
        logs.map((log) => ({
          wordId: Number(log.word_id),
          rating: Number(log.rating),
          reviewedAt: dateFromDb(log.reviewed_at),
        })),
        user?.time_zone ?? null,
      );
      weights = await this.optimise(items);
    } finally {
      // Computed (or not: the defaults stay) for this week either way; the claim goes.
      await sql(
        this.db,
        'UPDATE fsrs_parameters SET weights = ?, reviews = ?, computed_at = ?, claimed_until = NULL WHERE user_id = ?',
        [weights ? JSON.stringify(weights) : null, reviews, dateToDb(this.db, now), userId],
      );
    }
    return weights !== null;
  }

  /** The optimiser's weights, or null where it cannot run or gives something FSRS cannot take. */
  private async optimise(items: TrainingReview[][]): Promise<number[] | null> {
    const binding = await (this.binding ??= Promise.resolve()
      .then(
        // A plain require: its native addon is CommonJS, and loads (or fails) here, not at the server's boot.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        () => require(BINDING) as Binding,
      )
      .catch((error: unknown) => {
        this.logger.warn(`The FSRS optimiser cannot run here; default parameters are kept: ${String(error)}`);
        return null;
      }));
    if (!binding || !items.length) return null;
    const weights = await binding.computeParameters(
      items.map(
        (reviews) =>
          new binding.FSRSBindingItem(reviews.map((r) => new binding.FSRSBindingReview(r.rating, r.deltaT))),
      ),
      // No `timeout`: binding 0.5.0 then waits the whole of it even when done (measured: 60 s for 0.5 s of
      // work); the work is bounded by MAX_TRAINING_REVIEWS instead.
      { enableShortTerm: true },
    );
    return Array.isArray(weights) && weights.length === WEIGHTS && weights.every(Number.isFinite)
      ? weights
      : null;
  }
}
