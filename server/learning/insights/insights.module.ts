import { Module } from '@nestjs/common';
import { InsightsController } from './insights.controller';
import { InsightsService } from './insights.service';

/** Readers' insights for administrators, read from listening events and reading places. */
@Module({ controllers: [InsightsController], providers: [InsightsService] })
export class InsightsModule {}
