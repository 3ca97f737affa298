import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { CurrentUser } from '../../accounts/auth/auth.decorators';
import { MemberRateLimit } from '../../http/rate-limit';
import type { User } from '../../accounts/users/user.entity';
import { LISTENING_REPORTS_LIMIT, ListeningAnswer, ListeningDto, StatsAnswer } from './listening.dto';
import { ListeningService } from './listening.service';
import { StatsService } from './stats.service';

/** A member's listening reports, and the progress made of them. */
@Controller('user')
export class ListeningController {
  constructor(
    private readonly listening: ListeningService,
    private readonly statsService: StatsService,
  ) {}

  @Post('listening')
  @HttpCode(200)
  @MemberRateLimit(LISTENING_REPORTS_LIMIT)
  @ApiOkResponse({ type: ListeningAnswer })
  record(@CurrentUser() user: User, @Body() dto: ListeningDto) {
    return this.listening.record(user, dto.events);
  }

  @Get('stats')
  @ApiOkResponse({ type: StatsAnswer })
  stats(@CurrentUser() user: User) {
    return this.statsService.stats(user);
  }
}
