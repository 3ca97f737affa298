import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentUser } from '../../accounts/auth/auth.decorators';
import { IdParam } from '../../platform/common/id-param';
import type { User } from '../../accounts/users/user.entity';
import {
  ReviewAheadAnswer,
  ReviewAheadQuery,
  ReviewAnswerDto,
  ReviewQueueAnswer,
  ReviewResultAnswer,
  ReviewUndoAnswer,
} from './review.dto';
import { ErrorAnswer } from '../../platform/common/error-answer';
import { ReviewService } from './review.service';

/** Spaced repetition of a member's saved words. */
@Controller('user/review')
export class ReviewController {
  constructor(private readonly review: ReviewService) {}

  @Get()
  @ApiOkResponse({ type: ReviewQueueAnswer })
  queue(@CurrentUser() user: User) {
    return this.review.queue(user);
  }

  /** For a device that keeps a book to review it offline. */
  @Get('ahead')
  @ApiOperation({
    summary: "The member's cards of one book due in the next days, and today's allowance of new cards",
  })
  @ApiOkResponse({ type: ReviewAheadAnswer })
  @ErrorAnswer(404, 'No book has that code.')
  ahead(@CurrentUser() user: User, @Query() query: ReviewAheadQuery) {
    return this.review.ahead(user, query);
  }

  // Before ':id', which would take "undo" for a word's id.
  @Post('undo')
  @HttpCode(200)
  @ApiOkResponse({ type: ReviewUndoAnswer })
  @ErrorAnswer(409, 'The card has changed since that answer.')
  undo(@CurrentUser() user: User) {
    return this.review.undo(user);
  }

  @Post(':id')
  @HttpCode(200)
  @ApiOkResponse({ type: ReviewResultAnswer })
  @ErrorAnswer(
    409,
    'Already answered: the card is no longer at the `version` sent, or, without one, it was answered under 2 s before this answer (now, or `reviewed_at`).',
  )
  answer(@CurrentUser() user: User, @IdParam() id: number, @Body() dto: ReviewAnswerDto) {
    return this.review.answer(user, id, dto);
  }
}
