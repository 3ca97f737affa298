import {
  HttpException,
  HttpStatus,
  Injectable,
  SetMetadata,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { Clock } from './clock';

/** A sliding-window counter per key, in memory: one process serves the product. */
export class SlidingWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  private recent(key: string): number[] {
    const now = this.clock.now().getTime();
    const list = (this.hits.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (list.length === 0) this.hits.delete(key);
    else this.hits.set(key, list);
    return list;
  }

  /** Milliseconds until the key may act again, or 0 when it is under its limit. */
  waitMs(key: string): number {
    const list = this.recent(key);
    if (list.length < this.limit) return 0;
    return list[list.length - this.limit] + this.windowMs - this.clock.now().getTime();
  }

  record(key: string): void {
    if (this.hits.size > 50_000) this.prune();
    this.hits.set(key, [...this.recent(key), this.clock.now().getTime()]);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private prune(): void {
    for (const key of [...this.hits.keys()]) this.recent(key);
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
    private readonly clock: Clock,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const bucket = this.reflector.getAllAndOverride<string>(RATE_LIMIT, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!bucket) return true;
    let window = this.windows.get(bucket);
    if (!window) {
      window = new SlidingWindow(PER_IP_PER_MINUTE, 60_000, this.clock);
      this.windows.set(bucket, window);
    }
    const http = context.switchToHttp();
    const key = http.getRequest<Request>().ip ?? 'unknown';
    const wait = window.waitMs(key);
    if (wait > 0) throw new TooManyRequests(http.getResponse<Response>(), wait);
    window.record(key);
    return true;
  }
}
