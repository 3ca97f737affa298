import { ErrorAnswer } from '../../platform/common/error-answer';
import { Body, Controller, Get, Header, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import { AdminOnly, CurrentUser, Public } from '../../accounts/auth/auth.decorators';
import { Uploads } from '../../http/body/multipart.interceptor';
import type { User } from '../../accounts/users/user.entity';
import { BookExport } from './book-export';
import { BookImportService } from './book-import.service';
import { BOOK_IMPORT_UPLOADS, BookImportAnswer, BookImportDto, ExportLinkAnswer } from './book-imports.dto';

/**
 * Whole books: export one as a zip, and stage one from such a zip. The staged book is then committed or
 * discarded through the same `admin/import/{import_id}` routes as a chapter import.
 */
@AdminOnly()
@Controller('admin/book')
export class BookImportsController {
  constructor(
    private readonly exporter: BookExport,
    private readonly imports: BookImportService,
  ) {}

  @Post('import')
  @HttpCode(200)
  @Uploads(BOOK_IMPORT_UPLOADS)
  @ApiOkResponse({ type: BookImportAnswer })
  stage(@CurrentUser() user: User, @Body() dto: BookImportDto) {
    return this.imports.stageBook(user, dto);
  }

  @Get(':bookCode/export')
  @Header('Cache-Control', 'private, no-store')
  @ApiProduces('application/zip')
  @ApiOkResponse({
    description: "The book as a zip: book.json, its cover and sample, and each chapter's text and clips.",
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  export(@Param('bookCode') bookCode: string) {
    return this.exporter.zip(bookCode);
  }

  @Post(':bookCode/export-link')
  @HttpCode(200)
  @ApiOkResponse({ type: ExportLinkAnswer })
  exportLink(@Param('bookCode') bookCode: string) {
    return this.exporter.link(bookCode);
  }
}

/**
 * The export behind a short-lived signed link, for a download button: a browser following a link sends
 * no token, and the zip is too large to fetch into the page first. The signature is the permission.
 */
@Public()
@ErrorAnswer(403, 'The download link has expired or is not valid: ask for a new one.')
@Controller('book-export')
export class BookExportDownloadController {
  constructor(private readonly exporter: BookExport) {}

  @Get(':bookCode')
  @Header('Cache-Control', 'private, no-store')
  @ApiProduces('application/zip')
  @ApiOkResponse({
    description: "The book as a zip: book.json, its cover and sample, and each chapter's text and clips.",
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  download(@Param('bookCode') bookCode: string, @Query('exp') exp: unknown, @Query('sig') sig: unknown) {
    return this.exporter.signedZip(bookCode, exp, sig);
  }
}
