import { Module } from '@nestjs/common';
import { ReadingModule } from '../reading/reading.module';
import { WordStatusController } from './word-status.controller';
import { WordStatusService } from './word-status.service';
import { CoverageRefresher } from './coverage-refresher';

/** Word status and coverage (docs/word-status.md); the catalogue's repositories come from its global module. */
@Module({
  // Reading: the one access rule for a chapter (ReadingService.locate).
  imports: [ReadingModule],
  controllers: [WordStatusController],
  providers: [WordStatusService, CoverageRefresher],
  exports: [CoverageRefresher],
})
export class WordStatusModule {}
