import { Module } from '@nestjs/common';
import { ReadingModule } from '../reading/reading.module';
import { WordFormsModule } from '../word-forms/word-forms.module';
import { WordStatusController } from './word-status.controller';
import { WordStatusService } from './word-status.service';
import { CoverageRefresher } from './coverage-refresher';

/** Word status and coverage (docs/word-status.md); the catalogue's repositories come from its global module. */
@Module({
  // Reading: the one access rule for a chapter (ReadingService.locate). Word forms: a language's keys changed.
  imports: [ReadingModule, WordFormsModule],
  controllers: [WordStatusController],
  providers: [WordStatusService, CoverageRefresher],
  exports: [CoverageRefresher],
})
export class WordStatusModule {}
