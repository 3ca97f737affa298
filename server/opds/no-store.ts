import {
  applyDecorators,
  Injectable,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Response } from 'express';
import { ReadingAppAuth } from '../app-passwords/reading-app-auth';

/**
 * Feeds depend on who asks (sample or full links), so no cache may keep one, errors included. Set by a
 * guard that lets everything through, placed before the Basic guard so that its 401 and 429 carry it too:
 * a guard is the first per-route step Nest runs, and a Nest middleware would register as an Express route.
 */
@Injectable()
export class NoStoreGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    context.switchToHttp().getResponse<Response>().setHeader('Cache-Control', 'private, no-store');
    return true;
  }
}

/** `@ReadingAppAuth()` with every answer `Cache-Control: private, no-store`. */
export const PrivateReadingAppAuth = () => applyDecorators(UseGuards(NoStoreGuard), ReadingAppAuth());
