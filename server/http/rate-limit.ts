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
import { RateWindows, TooManyRequests, type SlidingWindow } from '../platform/common/rate-windows';

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
    if (wait > 0) throw new TooManyRequests(wait);
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
    if (wait > 0) throw new TooManyRequests(wait, rule.message);
    return true;
  }
}
