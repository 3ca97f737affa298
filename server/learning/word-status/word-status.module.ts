import { Module } from '@nestjs/common';
import { WordFormsModule } from '../../content/word-forms/word-forms.module';
import { WordStatusController } from './word-status.controller';
import { WordStatusService } from './word-status.service';
import { CoverageRefresher } from './coverage-refresher';

/** Word status and coverage (docs/word-status.md); the catalogue's repositories come from its global module. */
@Module({
  // Word forms: a language's keys changed. The access rule's module is global (server/content/access/).
  imports: [WordFormsModule],
  controllers: [WordStatusController],
  providers: [WordStatusService, CoverageRefresher],
  exports: [CoverageRefresher],
})
export class WordStatusModule {}
