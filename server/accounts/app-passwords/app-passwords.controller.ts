import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { CurrentUser } from '../auth/auth.decorators';
import { IdParam } from '../../platform/common/id-param';
import type { User } from '../users/user.entity';
import {
  AppPasswordCreatedAnswer,
  AppPasswordRevokedAnswer,
  AppPasswordsAnswer,
  CreateAppPasswordDto,
} from './app-passwords.dto';
import { AppPasswords } from './app-passwords.service';

/** A signed-in user's passwords for reading apps (docs/formats.md "App passwords"): bearer only. */
@Controller('user/app-passwords')
export class AppPasswordsController {
  constructor(private readonly passwords: AppPasswords) {}

  @Get()
  @ApiOkResponse({ type: AppPasswordsAnswer })
  list(@CurrentUser() user: User) {
    return this.passwords.list(user);
  }

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: AppPasswordCreatedAnswer })
  create(@CurrentUser() user: User, @Body() dto: CreateAppPasswordDto) {
    return this.passwords.create(user, dto);
  }

  @Delete(':id')
  @ApiOkResponse({ type: AppPasswordRevokedAnswer })
  revoke(@CurrentUser() user: User, @IdParam() id: number) {
    return this.passwords.revoke(user, id);
  }
}
