import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing/billing.module';
import { AppearanceController } from './appearance.controller';
import { Appearance } from './appearance.entity';
import { AppearanceService } from './appearance.service';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [BillingModule, TypeOrmModule.forFeature([Appearance])],
  controllers: [UsersController, AppearanceController],
  providers: [UsersService, AppearanceService],
})
export class UsersModule {}
