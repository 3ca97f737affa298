import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { MessageAnswer } from '../../platform/common/answers';
import { BookImportResponse } from './book-imports.dto';
import { sendStored } from '../../platform/media/serve/send-stored';
import { ImportStage } from './import-stage';
import { AdminOnly, CurrentUser, Public } from '../../accounts/auth/auth.decorators';
import { ErrorAnswer } from '../../platform/common/error-answer';
import { IdParam } from '../../platform/common/id-param';
import { Uploads } from '../../http/body/multipart.interceptor';
import type { User } from '../../accounts/users/user.entity';
import { previewSubject } from './chapter-import-preview';
import { ChapterImportService } from './chapter-import.service';
import {
  BoundariesDto,
  CHAPTER_IMPORT_OPTIONS,
  CHAPTER_IMPORT_UPLOADS,
  ChapterImportAnswer,
  ChapterImportDto,
  ChapterImportResponse,
  CommitDto,
  ImportAligning,
  ImportAligningAnswer,
  ImportCommitAnswer,
  ImportPreviewAnswer,
  RecordingPeaksAnswer,
} from './imports.dto';
import { ImportsService } from './imports.service';
import { SignedLinks } from '../../platform/common/signed-links';
import { DAMAGED_IMPORT_MESSAGE } from './manifest-checks';

const AUDIO_TYPES = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
};

/** How the API answers an import whose stored manifest is damaged (manifests.ts). */
const DAMAGED = `The import's stored data is damaged: "${DAMAGED_IMPORT_MESSAGE}"`;

/** A recording still being aligned is answered 202, with its progress. */
function accepted<T extends { data: object }>(res: Response, answer: T): T {
  if ('status' in answer.data && answer.data.status === 'aligning') res.status(202);
  return answer;
}

/** Importing a chapter's phrases in one step: stage and preview, then commit or discard. */
@AdminOnly()
@ApiExtraModels(ChapterImportResponse, BookImportResponse, ImportAligning)
@Controller('admin')
export class ImportsController {
  constructor(
    private readonly chapters: ChapterImportService,
    private readonly imports: ImportsService,
  ) {}

  @Post('chapter/:id/import')
  @HttpCode(200)
  @Uploads(CHAPTER_IMPORT_UPLOADS, CHAPTER_IMPORT_OPTIONS)
  @ApiOkResponse({ type: ChapterImportAnswer })
  @ApiAcceptedResponse({
    type: ImportAligningAnswer,
    description:
      'A long recording is being aligned to its text: look at GET admin/import/{id} until it is ready.',
  })
  async stageChapter(
    @CurrentUser() user: User,
    @IdParam() id: number,
    @Body() dto: ChapterImportDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return accepted(res, await this.chapters.stageChapter(user, id, dto));
  }

  @Get('import/:importId')
  @ApiOkResponse({ type: ImportPreviewAnswer })
  @ApiAcceptedResponse({ type: ImportAligningAnswer, description: 'The recording is still being aligned.' })
  @ErrorAnswer(409, DAMAGED)
  async get(@Param('importId') id: string, @Res({ passthrough: true }) res: Response) {
    return accepted(res, await this.imports.get(id));
  }

  @Put('import/:importId/boundaries')
  @ApiOkResponse({ type: ChapterImportAnswer })
  @ErrorAnswer(409, DAMAGED)
  async boundaries(@Param('importId') id: string, @Body() dto: BoundariesDto) {
    return this.chapters.setBoundaries(await this.imports.find(id), dto);
  }

  @Get('import/:importId/peaks')
  @ApiOperation({
    summary: "A staged recording's waveform, for the preview's editor",
    description:
      'Computed with ffmpeg on the first request (a long recording takes a while) and kept with the import; later requests read it. 404 for an import without a recording; 503 without ffmpeg.',
  })
  @ApiOkResponse({ type: RecordingPeaksAnswer })
  @ErrorAnswer(409, DAMAGED)
  async peaks(@Param('importId') id: string) {
    return this.chapters.peaks(await this.imports.find(id));
  }

  @Post('import/:importId/commit')
  @HttpCode(200)
  @ApiOkResponse({ type: ImportCommitAnswer })
  @ErrorAnswer(409, `Another commit holds the import, or took it over from this one; or: ${DAMAGED}`)
  commit(@Param('importId') id: string, @Body() dto: CommitDto) {
    return this.imports.commit(id, dto.confirm === true);
  }

  @Delete('import/:importId')
  @ApiOkResponse({ type: MessageAnswer })
  discard(@Param('importId') id: string) {
    return this.imports.discard(id);
  }
}

/**
 * A staged clip for the preview's <audio>, which cannot send a token: the signed URL is the permission.
 * Staged files are not media: never cached by anyone but the browser, and gone with the import.
 */
@Public()
@Controller('import-preview')
export class ImportPreviewController {
  constructor(
    private readonly chapters: ChapterImportService,
    private readonly imports: ImportsService,
    private readonly links: SignedLinks,
    private readonly stage: ImportStage,
  ) {}

  @Get(':importId/:n')
  @ApiProduces(...Object.values(AUDIO_TYPES))
  @ErrorAnswer(409, DAMAGED)
  @ApiOkResponse({
    description: 'The staged clip (n ≥ 1) or recording (n = 0), with Range support (206 for a range).',
    content: Object.fromEntries(
      Object.values(AUDIO_TYPES).map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    ),
  })
  async clip(
    @Param('importId') id: string,
    @Param('n') index: string,
    @Query('exp') exp: unknown,
    @Query('sig') sig: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    // 0 is a recording, 1 and up the rows.
    const n = /^\d{1,5}$/.test(index) ? Number(index) : -1;
    if (!this.links.verify('import-preview', previewSubject(id, n), exp, sig))
      throw new NotFoundException('This preview link has expired.');
    const clip = this.chapters.clipFile(await this.imports.find(id), n);
    if (!clip) throw new NotFoundException('Clip not found.');
    // Streamed from the import store (whichever instance staged it), with Range for seeking.
    const sent = await sendStored(req, res, this.stage.store, clip.key, {
      cacheControl: 'private, no-store',
      contentType: AUDIO_TYPES[clip.type],
    });
    if (!sent) throw new NotFoundException('Clip not found.');
  }
}
