import { Module } from '@nestjs/common';
import { MemoryRateLimitGuard } from '../../http/memory-rate-limit';
import { WordsModule } from '../words/words.module';
import { LookupReadsModule } from './lookup-reads.module';
import { LookupController, PrivateUntilPublic } from './lookup.controller';
import { LookupService } from './lookup.service';

/** The lookup of any word: glossary, form, lemmas, folded (docs/lookup.md). */
@Module({
  imports: [WordsModule, LookupReadsModule],
  controllers: [LookupController],
  providers: [LookupService, MemoryRateLimitGuard, PrivateUntilPublic],
})
export class LookupModule {}
