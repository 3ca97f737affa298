import { createHash } from 'node:crypto';
import { HttpStatus, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { AnswerWithHeaders } from './api-error';
import { Clock } from './clock';

/**
 * A sliding-window counter per key, kept in the database (table rate_hits), so that every instance of the
 * product counts the same hits: five failed logins spread over two instances lock the account on both.
 */
export class SlidingWindow {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  private hash(key: string): string {
    return createHash('sha256').update(`${this.name}\0${key}`).digest('hex');
  }

  /**
   * Counts one hit for the key (or `weight` hits at once, for a limit on cost: each is a row; never more
   * than the limit), unless it would go over its limit: then nothing is counted and the answer is how many
   * milliseconds until it may act again (0 means the hits were counted). Counting and writing are one step per key: on PostgreSQL a
   * transaction-scoped advisory lock on the key queues requests racing on any instance; on SQLite the
   * transaction runs alone. So requests sent all at once get exactly the limit through, never more, never
   * fewer.
   */
  async hit(key: string, weight = 1): Promise<number> {
    const keyHash = this.hash(key);
    const count = Math.min(Math.max(1, Math.ceil(weight)), this.limit);
    return this.db.transaction(async (tx) => {
      if (tx.connection.options.type === 'postgres')
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [keyHash]);
      const now = this.clock.now().getTime();
      const recent = await sql<Array<{ at_ms: number }>>(
        tx,
        'SELECT at_ms FROM rate_hits WHERE key_hash = ? AND at_ms > ? ORDER BY at_ms DESC LIMIT ?',
        [keyHash, now - this.windowMs, this.limit],
      );
      // Room for `count` more once the hit at index limit − count (newest first) is out of the window.
      if (recent.length + count > this.limit)
        return Math.max(1, Number(recent[this.limit - count].at_ms) + this.windowMs - now);
      await sql(
        tx,
        `INSERT INTO rate_hits (key_hash, at_ms) VALUES ${Array(count).fill('(?, ?)').join(', ')}`,
        Array.from({ length: count }, () => [keyHash, now]).flat(),
      );
      return 0;
    });
  }

  /**
   * How many milliseconds until the key may act again, counting nothing: for a check that costs a hit
   * only when it fails (an app password, server/accounts/app-passwords/reading-app-auth.ts). 0 when not limited.
   */
  async wait(key: string): Promise<number> {
    const now = this.clock.now().getTime();
    const recent = await sql<Array<{ at_ms: number }>>(
      this.db,
      'SELECT at_ms FROM rate_hits WHERE key_hash = ? AND at_ms > ? ORDER BY at_ms DESC LIMIT ?',
      [this.hash(key), now - this.windowMs, this.limit],
    );
    return recent.length >= this.limit
      ? Math.max(1, Number(recent[this.limit - 1].at_ms) + this.windowMs - now)
      : 0;
  }

  async reset(key: string): Promise<void> {
    await sql(this.db, 'DELETE FROM rate_hits WHERE key_hash = ?', [this.hash(key)]);
  }
}

/** The longest window any limit uses; older hits are deleted. */
const KEEP_HITS_MS = 60 * 60 * 1000;

/** Makes the windows, and deletes hits too old for any of them every few minutes. */
@Injectable()
export class RateWindows implements OnModuleInit, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  window(name: string, limit: number, windowMs: number): SlidingWindow {
    return new SlidingWindow(this.db, this.clock, name, limit, windowMs);
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.prune().catch(() => undefined), 5 * 60 * 1000);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async prune(): Promise<void> {
    await sql(this.db, 'DELETE FROM rate_hits WHERE at_ms < ?', [this.clock.now().getTime() - KEEP_HITS_MS]);
  }
}

export class TooManyRequests extends AnswerWithHeaders {
  constructor(waitMs: number, message = 'Too many requests. Please try again later.') {
    super(HttpStatus.TOO_MANY_REQUESTS, message, {
      'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))),
    });
  }
}
