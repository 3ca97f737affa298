import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing/billing.module';
import { MediaIndex } from './media-index';
import { ProgressController } from './progress.controller';
import { ProgressService } from './progress.service';
import { ReadingProgress } from './reading-progress.entity';
import { ReadingController } from './reading.controller';
import { ReadingService } from './reading.service';
import { TranslationIndex } from './translation-index';

/** Reading: who may read which chapter, the chapters themselves, signed clips and progress. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ReadingProgress]), BillingModule],
  controllers: [ReadingController, ProgressController],
  providers: [ReadingService, ProgressService, MediaIndex, TranslationIndex],
  exports: [ReadingService, MediaIndex, TranslationIndex],
})
export class ReadingModule {}
