import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [BillingModule],
  controllers: [UsersController],
  providers: [UsersService],
})
export class UsersModule {}
