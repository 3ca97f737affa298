import { Controller, Get } from '@nestjs/common';
import { Roles } from '../common/auth.decorators';
import { UserType } from '../users/user.entity';
import { AdminStatsService } from './admin-stats.service';

@Roles(UserType.Admin)
@Controller('admin/stats')
export class AdminStatsController {
  constructor(private readonly stats: AdminStatsService) {}

  @Get()
  get() {
    return this.stats.stats();
  }
}
