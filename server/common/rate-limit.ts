import { createHash } from 'node:crypto';
import {
  HttpException,
  HttpStatus,
  Injectable,
  SetMetadata,
  type CanActivate,
  type ExecutionContext,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
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
   * Counts one hit for the key, unless it is over its limit: then nothing is counted and the answer is
   * how many milliseconds until it may act again (0 means the hit was counted). The hit is written first
   * and ranked among its window's, so requests sent all at once, on any instance, cannot all slip under
   * the limit together.
   */
  async hit(key: string): Promise<number> {
    const keyHash = this.hash(key);
    const now = this.clock.now().getTime();
    const [{ id }] = await sql<Array<{ id: number }>>(
      this.db,
      'INSERT INTO rate_hits (key_hash, at_ms) VALUES (?, ?) RETURNING id',
      [keyHash, now],
    );
    const earlier = await sql<Array<{ id: number; at_ms: number }>>(
      this.db,
      'SELECT id, at_ms FROM rate_hits WHERE key_hash = ? AND at_ms > ? AND id < ? ORDER BY at_ms DESC, id DESC LIMIT ?',
      [keyHash, now - this.windowMs, id, this.limit],
    );
    if (earlier.length < this.limit) return 0;
    await sql(this.db, 'DELETE FROM rate_hits WHERE id = ?', [id]);
    return Math.max(1, Number(earlier[this.limit - 1].at_ms) + this.windowMs - now);
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

export class TooManyRequests extends HttpException {
  constructor(response: Response, waitMs: number, message = 'Too many requests. Please try again later.') {
    response.setHeader('Retry-After', String(Math.max(1, Math.ceil(waitMs / 1000))));
    super({ message }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

const RATE_LIMIT = 'lingonovel:rate-limit';
export const PER_IP_PER_MINUTE = 30;

/**
 * Limits requests per client address to a group of routes (e.g. "login"). Generous enough for a family
 * or a classroom behind one address, tight enough to slow down scripted guessing.
 */
export const RateLimit = (bucket: string) => SetMetadata(RATE_LIMIT, bucket);

@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly windows = new Map<string, SlidingWindow>();

  constructor(
    private readonly reflector: Reflector,
    private readonly rateWindows: RateWindows,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const bucket = this.reflector.getAllAndOverride<string>(RATE_LIMIT, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!bucket) return true;
    let window = this.windows.get(bucket);
    if (!window) {
      window = this.rateWindows.window(`ip:${bucket}`, PER_IP_PER_MINUTE, 60_000);
      this.windows.set(bucket, window);
    }
    const http = context.switchToHttp();
    const key = http.getRequest<Request>().ip ?? 'unknown';
    const wait = await window.hit(key);
    if (wait > 0) throw new TooManyRequests(http.getResponse<Response>(), wait);
    return true;
  }
}
