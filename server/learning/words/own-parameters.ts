import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { dateFromDb } from '../../platform/database/db-dates';
import { sql } from '../../platform/database/sql';
import { MIN_REVIEWS } from './fsrs-training';
import { Scheduler } from './scheduler';

/** What /review says of a member's parameters (docs/practice.md, "Your own FSRS"). */
export interface ParametersState {
  own: boolean;
  computed_at: string | null;
  /** Reviews the member has made; their own parameters come from MIN_REVIEWS on. */
  reviews: number;
  needed: number;
}

/** Schedulers kept per member and computation: each is a few numbers, built once. */
const KEPT = 1000;

/**
 * Which FSRS parameters schedule a member's reviews: their own once the optimiser computed them
 * (fsrs-optimiser.ts), else FSRS's defaults.
 */
@Injectable()
export class OwnParameters {
  private readonly defaults: Scheduler;
  private readonly schedulers = new Map<string, Scheduler>();

  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.defaults = new Scheduler(config.reviewFuzz);
  }

  private async row(userId: number): Promise<{ weights: number[] | null; computedAt: Date | null }> {
    const [row] = await sql<Array<{ weights: string | null; computed_at: Date | string | null }>>(
      this.db,
      'SELECT weights, computed_at FROM fsrs_parameters WHERE user_id = ?',
      [userId],
    );
    const weights = row?.weights ? (JSON.parse(row.weights) as number[]) : null;
    return { weights, computedAt: row?.computed_at ? dateFromDb(row.computed_at) : null };
  }

  /** The member's scheduler. */
  async schedulerOf(userId: number): Promise<Scheduler> {
    const { weights, computedAt } = await this.row(userId);
    if (!weights || !computedAt) return this.defaults;
    const key = `${userId}:${computedAt.getTime()}`;
    let scheduler = this.schedulers.get(key);
    if (!scheduler) {
      if (this.schedulers.size >= KEPT) this.schedulers.clear();
      scheduler = new Scheduler(this.config.reviewFuzz, weights);
      this.schedulers.set(key, scheduler);
    }
    return scheduler;
  }

  async stateOf(userId: number): Promise<ParametersState> {
    const [{ weights, computedAt }, [{ n }]] = await Promise.all([
      this.row(userId),
      sql<Array<{ n: number | string }>>(this.db, 'SELECT COUNT(*) AS n FROM review_logs WHERE user_id = ?', [
        userId,
      ]),
    ]);
    return {
      own: Boolean(weights && computedAt),
      computed_at: weights && computedAt ? computedAt.toISOString() : null,
      reviews: Number(n),
      needed: MIN_REVIEWS,
    };
  }
}
