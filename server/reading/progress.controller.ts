import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { CurrentUser } from '../common/auth.decorators';
import type { User } from '../users/user.entity';
import { ProgressDto } from './progress.dto';
import { ProgressService } from './progress.service';

/** A member's place in their books. */
@Controller('user/progress')
export class ProgressController {
  constructor(private readonly progress: ProgressService) {}

  @Put()
  save(@CurrentUser() user: User, @Body() dto: ProgressDto) {
    return this.progress.save(user, dto);
  }

  @Get()
  list(@CurrentUser() user: User) {
    return this.progress.list(user);
  }

  @Get(':bookCode')
  get(@CurrentUser() user: User, @Param('bookCode') bookCode: string) {
    return this.progress.get(user, bookCode);
  }
}
