import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { AppearanceAnswer, AppearanceDto, AppearanceSaveAnswer } from './appearance.dto';
import { AppearanceService } from './appearance.service';
import { User } from './user.entity';

/** The signed-in user's theme and reading settings, shared by their devices. */
@Controller('user/appearance')
export class AppearanceController {
  constructor(private readonly appearance: AppearanceService) {}

  @Get()
  @ApiOkResponse({ type: AppearanceAnswer })
  get(@CurrentUser() user: User) {
    return this.appearance.get(user);
  }

  @Put()
  @ApiOkResponse({ type: AppearanceSaveAnswer })
  save(@CurrentUser() user: User, @Body() dto: AppearanceDto) {
    return this.appearance.save(user, dto);
  }
}
