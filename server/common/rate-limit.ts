import { createHash } from 'node:crypto';
import {
  applyDecorators,
  HttpException,
  HttpStatus,
  Injectable,
  SetMetadata,
  UseGuards,
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
   * only when it fails (an app password, server/app-passwords/reading-app-auth.ts). 0 when not limited.
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

export class TooManyRequests extends HttpException {
  constructor(response: Response, waitMs: number, message = 'Too many requests. Please try again later.') {
    response.setHeader('Retry-After', String(Math.max(1, Math.ceil(waitMs / 1000))));
    super({ message }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

export const RATE_LIMIT = 'lingonovel:rate-limit';
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

export const MEMBER_RATE_LIMIT = 'lingonovel:member-rate-limit';

interface MemberLimit {
  bucket: string;
  limit: number;
  windowMs: number;
  message?: string;
}

/**
 * Limits one signed-in member's requests to a route, whatever address they come from (a classroom behind
 * one address would share a per-address limit). A route guard, so it runs after the auth guard has found
 * the member, and still before the body is read.
 */
export const MemberRateLimit = (rule: MemberLimit) =>
  applyDecorators(SetMetadata(MEMBER_RATE_LIMIT, rule), UseGuards(MemberRateLimitGuard));

@Injectable()
export class MemberRateLimitGuard implements CanActivate {
  private readonly windows = new Map<string, SlidingWindow>();

  constructor(
    private readonly reflector: Reflector,
    private readonly rateWindows: RateWindows,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<MemberLimit | undefined>(MEMBER_RATE_LIMIT, context.getHandler());
    if (!rule) return true;
    let window = this.windows.get(rule.bucket);
    if (!window) {
      window = this.rateWindows.window(`member:${rule.bucket}`, rule.limit, rule.windowMs);
      this.windows.set(rule.bucket, window);
    }
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { user?: { id: number } }>();
    // Member routes always have a member by now; anything else is counted by address, never let through.
    const key = req.user ? `user:${req.user.id}` : `ip:${req.ip ?? 'unknown'}`;
    const wait = await window.hit(key);
    if (wait > 0) throw new TooManyRequests(http.getResponse<Response>(), wait, rule.message);
    return true;
  }
}
