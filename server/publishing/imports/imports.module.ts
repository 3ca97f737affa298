import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AlignmentJobs } from './alignment-jobs';
import { BookExport } from './book-export';
import { BookImportService } from './book-import.service';
import { BookExportDownloadController, BookImportsController } from './book-imports.controller';
import { ChapterImportService } from './chapter-import.service';
import { ImportLifecycle } from './import-lifecycle';
import { ImportStage } from './import-stage';
import { ImportPreviewController, ImportsController } from './imports.controller';
import { ImportsService } from './imports.service';
import { StagedImport } from './staged-import.entity';

/** Imports: whole chapters in one step, and whole books out and in (docs/import.md). */
@Module({
  imports: [TypeOrmModule.forFeature([StagedImport])],
  controllers: [
    ImportsController,
    ImportPreviewController,
    BookImportsController,
    BookExportDownloadController,
  ],
  providers: [
    ImportLifecycle,
    AlignmentJobs,
    ChapterImportService,
    ImportsService,
    ImportStage,
    BookImportService,
    BookExport,
  ],
})
export class ImportsModule {}
