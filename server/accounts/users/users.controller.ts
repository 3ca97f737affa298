import { ErrorAnswer } from '../../platform/common/error-answer';
import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { ChangePasswordDto } from '../auth/auth.dto';
import { User } from './user.entity';
import { PasswordChangedAnswer, ProfileAnswer, ProfileUpdatedAnswer, UpdateProfileDto } from './users.dto';
import { UsersService } from './users.service';

/** The signed-in user's own account. */
@Controller('user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('profile')
  @ApiOkResponse({ type: ProfileAnswer })
  profile(@CurrentUser() user: User) {
    return this.users.profile(user);
  }

  @Put('profile')
  @ApiOkResponse({ type: ProfileUpdatedAnswer })
  updateProfile(@CurrentUser() user: User, @Body() dto: UpdateProfileDto) {
    return this.users.updateProfile(user, dto);
  }

  @ErrorAnswer(409, 'The password was changed elsewhere meanwhile: sign in again.')
  @Post('change-password')
  @HttpCode(200)
  @ApiOkResponse({ type: PasswordChangedAnswer })
  changePassword(@CurrentUser() user: User, @Body() dto: ChangePasswordDto) {
    return this.users.changePassword(user, dto);
  }
}
