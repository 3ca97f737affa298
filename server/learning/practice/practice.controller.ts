import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import { CurrentUser } from '../../accounts/auth/auth.decorators';
import { ErrorAnswer, errorContent } from '../../platform/common/error-answer';
import { PREMIUM_CHAPTER } from '../../content/access/chapter-access';
import { MemberRateLimit } from '../../http/rate-limit';
import type { User } from '../../accounts/users/user.entity';
import { PHRASE_NOT_FOUND } from '../../content/access/access.service';
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

// The descriptions are the answers' own messages, so that a client can match them.
const LOCKED = `The phrase's chapter is one the member may not read: "${PREMIUM_CHAPTER}"`;
const NOT_FOUND = `No phrase has that id: "${PHRASE_NOT_FOUND}"`;
const BAD_CHAPTER = 'book_code or chapter_no is missing or not valid: `errors` says why, by field.';

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
  @ErrorAnswer(404, NOT_FOUND)
  attempt(@CurrentUser() user: User, @Body() dto: DictationDto) {
    return this.dictation.attempt(user, dto);
  }

  @Get('dictation')
  @ApiOkResponse({ type: DictationChapterAnswer })
  @ApiResponse({ status: 422, ...errorContent(BAD_CHAPTER, true) })
  scores(@CurrentUser() user: User, @Query() query: ChapterQuery) {
    return this.dictation.chapter(user, query);
  }

  @Put('marks')
  @MemberRateLimit(MARKS_LIMIT)
  @ApiOkResponse({ type: MarkAnswer })
  @ErrorAnswer(403, LOCKED)
  @ErrorAnswer(404, NOT_FOUND)
  mark(@CurrentUser() user: User, @Body() dto: MarkDto) {
    return this.marks.mark(user, dto);
  }

  @Get('marks')
  @ApiOkResponse({ type: ChapterMarksAnswer })
  @ApiResponse({ status: 422, ...errorContent(BAD_CHAPTER, true) })
  chapterMarks(@CurrentUser() user: User, @Query() query: ChapterQuery) {
    return this.marks.ofChapter(user, query);
  }
}
