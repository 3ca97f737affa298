import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Chapter } from '../chapters/chapter.entity';
import { ChapterImportService } from './chapter-import.service';
import { ImportStage } from './import-stage';
import { ImportPreviewController, ImportsController } from './imports.controller';
import { ImportsService } from './imports.service';
import { PreviewUrls } from './preview-urls';
import { StagedImport } from './staged-import.entity';

/** Imports: whole chapters in one step (docs/import.md). */
@Module({
  imports: [TypeOrmModule.forFeature([StagedImport, Chapter])],
  controllers: [ImportsController, ImportPreviewController],
  providers: [ChapterImportService, ImportsService, ImportStage, PreviewUrls],
})
export class ImportsModule {}
