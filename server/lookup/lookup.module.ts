import { Module } from '@nestjs/common';
import { MemoryRateLimitGuard } from '../common/memory-rate-limit';
import { ReadingModule } from '../reading/reading.module';
import { WordsModule } from '../words/words.module';
import { LookupReadsModule } from './lookup-reads.module';
import { LookupController, PrivateUntilPublic } from './lookup.controller';
import { LookupService } from './lookup.service';

/** The lookup of any word: glossary, form, lemmas, folded (docs/lookup.md). */
@Module({
  // Words: the reader's access rule for one phrase (ReadablePhrase); Reading: for a chapter.
  imports: [WordsModule, LookupReadsModule, ReadingModule],
  controllers: [LookupController],
  providers: [LookupService, MemoryRateLimitGuard, PrivateUntilPublic],
})
export class LookupModule {}
