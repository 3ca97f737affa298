import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProgressController } from './progress.controller';
import { ProgressService } from './progress.service';
import { ReadingProgress } from './reading-progress.entity';
import { ReadingController } from './reading.controller';
import { ReadingService } from './reading.service';

/** Reading: tables of contents, the chapters themselves (under the access rule, server/content/access/) and progress. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ReadingProgress])],
  controllers: [ReadingController, ProgressController],
  providers: [ReadingService, ProgressService],
  exports: [ReadingService],
})
export class ReadingModule {}
