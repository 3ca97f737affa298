import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { ErrorAnswer } from '../common/error-answer';
import { MemberRateLimit } from '../common/rate-limit';
import type { User } from '../users/user.entity';
import { DictationService } from './dictation.service';
import { MarksService } from './marks.service';
import {
  ChapterMarksAnswer,
  ChapterQuery,
  DICTATION_LIMIT,
  DictationChapterAnswer,
  DictationDto,
  DictationResultAnswer,
  MarkAnswer,
  MarkDto,
  MARKS_LIMIT,
} from './practice.dto';

const LOCKED = 'The phrase is in a chapter the member may not read (Premium Plus).';

/** A member's practice on phrases: dictations and "did you understand?" marks. */
@Controller('user')
export class PracticeController {
  constructor(
    private readonly dictation: DictationService,
    private readonly marks: MarksService,
  ) {}

  @Post('dictation')
  @MemberRateLimit(DICTATION_LIMIT)
  @ApiCreatedResponse({ type: DictationResultAnswer, description: 'The attempt, scored and kept.' })
  @ErrorAnswer(403, LOCKED)
  @ErrorAnswer(404, 'No phrase has that id.')
  attempt(@CurrentUser() user: User, @Body() dto: DictationDto) {
    return this.dictation.attempt(user, dto);
  }

  @Get('dictation')
  @ApiOkResponse({ type: DictationChapterAnswer })
  scores(@CurrentUser() user: User, @Query() query: ChapterQuery) {
    return this.dictation.chapter(user, query);
  }

  @Put('marks')
  @MemberRateLimit(MARKS_LIMIT)
  @ApiOkResponse({ type: MarkAnswer })
  @ErrorAnswer(403, LOCKED)
  @ErrorAnswer(404, 'No phrase has that id.')
  mark(@CurrentUser() user: User, @Body() dto: MarkDto) {
    return this.marks.mark(user, dto);
  }

  @Get('marks')
  @ApiOkResponse({ type: ChapterMarksAnswer })
  chapterMarks(@CurrentUser() user: User, @Query() query: ChapterQuery) {
    return this.marks.ofChapter(user, query);
  }
}
