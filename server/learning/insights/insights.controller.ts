import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { AdminOnly } from '../../accounts/auth/auth.decorators';
import { BookInsightsAnswer, InsightsService } from './insights.service';

/** What authors learn about a book's readers: aggregates only. */
@AdminOnly()
@Controller('admin/book')
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  @Get(':bookCode/insights')
  @ApiOkResponse({ type: BookInsightsAnswer })
  get(@Param('bookCode') bookCode: string) {
    return this.insights.forBook(bookCode);
  }
}
