import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/auth.decorators';
import { MessageAnswer } from '../../platform/common/answers';
import { ErrorAnswer } from '../../platform/common/error-answer';
import { RateLimit } from '../../http/rate-limit';
import { SetupDto, SetupStateAnswer } from './setup.dto';
import { SetupService } from './setup.service';

/** The first run's wizard (docs/deploy.md, "First run"): public until the first administrator exists. */
@Public()
@Controller('setup')
export class SetupController {
  constructor(private readonly setup: SetupService) {}

  @Get()
  @ApiOkResponse({ type: SetupStateAnswer })
  state(@Res({ passthrough: true }) res: Response) {
    res.setHeader('Cache-Control', 'no-store');
    return this.setup.state();
  }

  @ErrorAnswer(404, 'There is no setup to do: restart the server for a setup code.')
  @ErrorAnswer(409, 'Lingonovel is set up already: sign in.')
  @Post()
  @HttpCode(200)
  @RateLimit('setup')
  @ApiOkResponse({ type: MessageAnswer })
  create(@Body() dto: SetupDto) {
    return this.setup.create(dto);
  }
}
