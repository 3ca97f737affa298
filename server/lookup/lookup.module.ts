import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MemoryRateLimitGuard } from '../common/memory-rate-limit';
import { WordsModule } from '../words/words.module';
import { LookupReadsModule } from './lookup-reads.module';
import { LookupController } from './lookup.controller';
import { LookupService, PRIVATE_LOOKUP } from './lookup.service';

/**
 * Every answer of the route is private until the lookup says otherwise (a visitor's, without a phrase):
 * refusals (403, 404, 422, 429) included. Its answer differs with the token, so caches keep them apart.
 */
function privateUntilPublic(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', PRIVATE_LOOKUP);
  res.vary('Authorization');
  next();
}

/** The lookup of any word: glossary, form, lemmas, folded (docs/lookup.md). */
@Module({
  // Words: the reader's access rule for one phrase (ReadablePhrase).
  imports: [WordsModule, LookupReadsModule],
  controllers: [LookupController],
  providers: [LookupService, MemoryRateLimitGuard],
})
export class LookupModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(privateUntilPublic).forRoutes(LookupController);
  }
}
