import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { AdminOnly } from '../../accounts/auth/auth.decorators';
import { AdminStatsAnswer, AdminStatsService } from './admin-stats.service';

@AdminOnly()
@Controller('admin/stats')
export class AdminStatsController {
  constructor(private readonly stats: AdminStatsService) {}

  @Get()
  @ApiOkResponse({ type: AdminStatsAnswer })
  get() {
    return this.stats.stats();
  }
}
