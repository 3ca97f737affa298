import { ErrorAnswer } from '../../platform/common/error-answer';
import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { CurrentUser } from '../../accounts/auth/auth.decorators';
import type { User } from '../../accounts/users/user.entity';
import { ProgressAnswer, ProgressDto, ProgressListAnswer, ProgressSaveAnswer } from './progress.dto';
import { ProgressService } from './progress.service';

/** A member's place in their books. */
@Controller('user/progress')
export class ProgressController {
  constructor(private readonly progress: ProgressService) {}

  @ErrorAnswer(403, 'A locked chapter this member may not read.')
  @Put()
  @ApiOkResponse({ type: ProgressSaveAnswer })
  save(@CurrentUser() user: User, @Body() dto: ProgressDto) {
    return this.progress.save(user, dto);
  }

  @Get()
  @ApiOkResponse({ type: ProgressListAnswer })
  list(@CurrentUser() user: User) {
    return this.progress.list(user);
  }

  @Get(':bookCode')
  @ApiOkResponse({ type: ProgressAnswer })
  get(@CurrentUser() user: User, @Param('bookCode') bookCode: string) {
    return this.progress.get(user, bookCode);
  }
}
