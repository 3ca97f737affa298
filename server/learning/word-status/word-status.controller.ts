import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../../accounts/auth/auth.decorators';
import { ErrorAnswer } from '../../platform/common/error-answer';
import { IdParam } from '../../platform/common/id-param';
import type { User } from '../../accounts/users/user.entity';
import {
  BookCoverageResponse,
  ChapterMarkAnswer,
  ChapterMarkDto,
  ChapterWordsAnswer,
  ChapterWordsQuery,
  CoverageAnswer,
  CoverageQuery,
  MemberBooksAnswer,
  SetWordStatusDto,
  UndoneAnswer,
  WordStatusAnswer,
} from './word-status.dto';
import { WordStatusService } from './word-status.service';

/** A member's own answers: never kept by a shared cache, nor by the browser's (they change with each mark). */
const PRIVATE = 'private, no-store';

/** Which words a member knows (docs/word-status.md). */
// BookCoverageResponse: named by reference in the coverage answer's map.
@ApiExtraModels(BookCoverageResponse)
@Controller('user')
export class WordStatusController {
  constructor(private readonly statuses: WordStatusService) {}

  @Put('word-status')
  @ApiOkResponse({ type: WordStatusAnswer })
  set(@CurrentUser() user: User, @Body() dto: SetWordStatusDto) {
    return this.statuses.set(user, dto);
  }

  @Post('word-status/chapter')
  @HttpCode(200)
  @ApiOkResponse({ type: ChapterMarkAnswer })
  @ErrorAnswer(403, 'The chapter is one the member may not read.')
  @ErrorAnswer(404, 'No such book or chapter.')
  markChapter(@CurrentUser() user: User, @Body() dto: ChapterMarkDto) {
    return this.statuses.markChapter(user, dto);
  }

  @Delete('word-status/chapter/:id')
  @ApiOkResponse({ type: UndoneAnswer })
  @ErrorAnswer(404, 'No marking of the member has that id (undone already, or another member’s).')
  undoChapter(@CurrentUser() user: User, @IdParam() id: number) {
    return this.statuses.undoChapter(user, id);
  }

  @Get('word-status/chapter')
  @ApiOkResponse({ type: ChapterWordsAnswer })
  @ErrorAnswer(403, 'The chapter is one the member may not read.')
  @ErrorAnswer(404, 'No such book or chapter.')
  ofChapter(
    @CurrentUser() user: User,
    @Query() query: ChapterWordsQuery,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('Cache-Control', PRIVATE);
    return this.statuses.ofChapter(user, query);
  }

  /** The catalogue's browse (guest/books' parameters) with the member's coverage, and sort=coverage. */
  @Get('books')
  @ApiOkResponse({ type: MemberBooksAnswer })
  books(
    @CurrentUser() user: User,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('Cache-Control', PRIVATE);
    return this.statuses.books(user, query);
  }

  @Get('coverage')
  @ApiOkResponse({ type: CoverageAnswer })
  coverage(
    @CurrentUser() user: User,
    @Query() query: CoverageQuery,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('Cache-Control', PRIVATE);
    return this.statuses.coverage(user, query.books);
  }
}
