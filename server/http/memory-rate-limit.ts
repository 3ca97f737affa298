import {
  applyDecorators,
  Injectable,
  SetMetadata,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Clock } from '../platform/common/clock';
import { TooManyRequests } from '../platform/common/rate-windows';

/**
 * Counts hits per key in this process's memory: for routes called so often that a database row per hit
 * (rate-limit.ts) would cost more than the work it guards, such as a word lookup on every tap. Each
 * instance counts on its own, so N instances let N times the limit through (docs/lookup.md).
 *
 * A key's window opens at its first hit and lasts `windowMs`: `limit` hits pass, the next ones wait for the
 * window to close. Closed windows are swept at most once per window length, and the map never holds more
 * than `maxKeys` keys (the oldest window goes first), so a flood of addresses cannot grow it without end.
 */
export class MemoryWindow {
  private readonly hits = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts one hit; 0 when it passes, else how many milliseconds until the key may try again. */
  hit(key: string, now: number): number {
    this.sweep(now);
    let entry = this.hits.get(key);
    if (!entry || entry.start + this.windowMs <= now) {
      // Deleted first, so that the map keeps its keys in the order their windows opened.
      this.hits.delete(key);
      if (this.hits.size >= this.maxKeys) this.hits.delete(this.hits.keys().next().value!);
      entry = { start: now, count: 0 };
      this.hits.set(key, entry);
    }
    if (entry.count >= this.limit) return Math.max(1, entry.start + this.windowMs - now);
    entry.count++;
    return 0;
  }

  /** How many keys are held (for the tests). */
  get size(): number {
    return this.hits.size;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    // Keys are in the order their windows opened: stop at the first window still open.
    for (const [key, entry] of this.hits) {
      if (entry.start + this.windowMs > now) break;
      this.hits.delete(key);
    }
  }
}

export const MEMORY_RATE_LIMIT = 'lingonovel:memory-rate-limit';

export interface MemoryLimit {
  /** Routes sharing a bucket share their counts. */
  bucket: string;
  limit: number;
  windowMs: number;
  message?: string;
}

/**
 * Limits a route's requests per client address (Express's `req.ip`, which follows TRUST_PROXY like every
 * other limit and the logs), counted in memory (MemoryWindow). A route guard: it runs after the auth guard
 * and before the query is validated, so refused and invalid requests count too.
 */
export const MemoryRateLimit = (rule: MemoryLimit) =>
  applyDecorators(SetMetadata(MEMORY_RATE_LIMIT, rule), UseGuards(MemoryRateLimitGuard));

/**
 * Whom a limit counts: an IPv4 address as it is (an IPv4-mapped IPv6 one too), an IPv6 address by its /64,
 * the block one subscriber gets: counted per address, a single host could walk its /64 and never be limited.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

@Injectable()
export class MemoryRateLimitGuard implements CanActivate {
  private readonly windows = new Map<string, MemoryWindow>();

  constructor(
    private readonly reflector: Reflector,
    private readonly clock: Clock,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const rule = this.reflector.get<MemoryLimit | undefined>(MEMORY_RATE_LIMIT, context.getHandler());
    if (!rule) return true;
    let window = this.windows.get(rule.bucket);
    if (!window) {
      window = new MemoryWindow(rule.limit, rule.windowMs);
      this.windows.set(rule.bucket, window);
    }
    const http = context.switchToHttp();
    const wait = window.hit(clientKey(http.getRequest<Request>().ip), this.clock.now().getTime());
    if (wait > 0) throw new TooManyRequests(wait, rule.message);
    return true;
  }
}
