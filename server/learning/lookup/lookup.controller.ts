import {
  Controller,
  Get,
  Injectable,
  Query,
  Res,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { MaybeUser, OptionalAuth } from '../../accounts/auth/auth.decorators';
import { ErrorAnswer } from '../../platform/common/error-answer';
import { MemoryRateLimit } from '../../http/memory-rate-limit';
import type { User } from '../../accounts/users/user.entity';
import {
  ChapterLookupsAnswer,
  ChapterLookupsQuery,
  ChapterWordLookup,
  LookupAnswer,
  LookupQuery,
} from './lookup.dto';
import { LookupService } from './lookup.service';

/**
 * How long a visitor's answer (no token, no phrase) may be kept by browsers and shared caches: a replaced
 * dictionary shows within this time. `Vary: Authorization` keeps it from a member, whose answer differs.
 */
export const PUBLIC_LOOKUP = 'public, max-age=300';
export const PRIVATE_LOOKUP = 'private, no-store';

/** Lookups per client address and minute, counted in each instance's memory (docs/lookup.md). */
export const LOOKUPS_PER_MINUTE = 600;
export const TOO_MANY_LOOKUPS = 'Too many lookups. Please wait a moment and try again.';

/**
 * Makes every answer of the route private until the lookup says otherwise (a visitor's, without a
 * phrase), refusals included (403, 404, 422, 429): a guard, because it runs before the rate limit and the
 * validation, which a route middleware would too but would show up as a route of its own. The answer
 * differs with the token, so caches keep them apart (Vary).
 */
@Injectable()
export class PrivateUntilPublic implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const res = context.switchToHttp().getResponse<Response>();
    res.setHeader('Cache-Control', PRIVATE_LOOKUP);
    res.vary('Authorization');
    return true;
  }
}

/** A word's lookup, for anyone: a member's token, when sent, picks the definitions' language. */
@OptionalAuth()
@UseGuards(PrivateUntilPublic)
// ChapterWordLookup: named by reference in a chapter's lookups' map.
@ApiExtraModels(ChapterWordLookup)
@Controller('lookup')
export class LookupController {
  constructor(private readonly lookups: LookupService) {}

  @Get()
  @MemoryRateLimit({
    bucket: 'lookup',
    limit: LOOKUPS_PER_MINUTE,
    windowMs: 60_000,
    message: TOO_MANY_LOOKUPS,
  })
  @ApiOkResponse({
    type: LookupAnswer,
    description:
      'Cache-Control: `public, max-age=300` for a visitor without `phrase_id`, else `private, no-store`.',
  })
  @ErrorAnswer(403, 'The phrase is in a chapter the caller may not read.')
  @ErrorAnswer(404, 'No phrase has that id.')
  @ErrorAnswer(
    429,
    `More than ${LOOKUPS_PER_MINUTE} lookups in a minute from this address: the Retry-After header says when to try again.`,
  )
  async lookup(
    @Query() query: LookupQuery,
    @MaybeUser() user: User | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const answer = await this.lookups.lookup(query, user);
    // Who asks changes the answer (a member's languages, a phrase's access): then no cache may keep it.
    res.setHeader('Cache-Control', user || query.phrase_id ? PRIVATE_LOOKUP : PUBLIC_LOOKUP);
    return answer;
  }

  /** A chapter's lookups, for a download to take with it (docs/lookup.md, "Offline"). Always private. */
  @Get('chapter')
  @MemoryRateLimit({
    bucket: 'lookup',
    limit: LOOKUPS_PER_MINUTE,
    windowMs: 60_000,
    message: TOO_MANY_LOOKUPS,
  })
  @ApiOkResponse({ type: ChapterLookupsAnswer })
  @ErrorAnswer(403, 'The chapter is one the caller may not read.')
  @ErrorAnswer(404, 'No such book or chapter.')
  chapter(@Query() query: ChapterLookupsQuery, @MaybeUser() user: User | undefined) {
    return this.lookups.chapter(query, user);
  }
}
