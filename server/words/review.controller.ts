import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CurrentUser } from '../common/auth.decorators';
import { IdParam } from '../common/id-param';
import type { User } from '../users/user.entity';
import { ReviewAnswerDto } from './review.dto';
import { ReviewService } from './review.service';

/** Spaced repetition of a member's saved words. */
@Controller('user/review')
export class ReviewController {
  constructor(private readonly review: ReviewService) {}

  @Get()
  queue(@CurrentUser() user: User) {
    return this.review.queue(user);
  }

  // Before ':id', which would take "undo" for a word's id.
  @Post('undo')
  @HttpCode(200)
  undo(@CurrentUser() user: User) {
    return this.review.undo(user);
  }

  @Post(':id')
  @HttpCode(200)
  answer(@CurrentUser() user: User, @IdParam() id: number, @Body() dto: ReviewAnswerDto) {
    return this.review.answer(user, id, dto.rating, dto.version);
  }
}
