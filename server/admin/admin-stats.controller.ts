import { Controller, Get } from '@nestjs/common';
import { AdminOnly } from '../common/auth.decorators';
import { AdminStatsService } from './admin-stats.service';

@AdminOnly()
@Controller('admin/stats')
export class AdminStatsController {
  constructor(private readonly stats: AdminStatsService) {}

  @Get()
  get() {
    return this.stats.stats();
  }
}
