import { Controller, Get, Param } from '@nestjs/common';
import { Roles } from '../common/auth.decorators';
import { UserType } from '../users/user.entity';
import { InsightsService } from './insights.service';

/** What authors learn about a book's readers: aggregates only. */
@Roles(UserType.Admin)
@Controller('admin/book')
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  @Get(':bookCode/insights')
  get(@Param('bookCode') bookCode: string) {
    return this.insights.forBook(bookCode);
  }
}
