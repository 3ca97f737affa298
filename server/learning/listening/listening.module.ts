import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ListeningEvent } from './listening-event.entity';
import { ListeningController } from './listening.controller';
import { ListeningService } from './listening.service';
import { StatsService } from './stats.service';

/** Listening: what the player reports members heard, and the stats a member sees of it. */
@Module({
  imports: [TypeOrmModule.forFeature([ListeningEvent])],
  controllers: [ListeningController],
  providers: [ListeningService, StatsService],
})
export class ListeningModule {}
