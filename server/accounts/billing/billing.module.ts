import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingController } from './billing.controller';
import { BillingService } from './billing.service';
import { MemberPlans } from './member-plans';
import { PaymentsConfiguredGuard } from './payments-configured.guard';
import { StripeEvent } from './stripe-event.entity';
import { StripeGateway } from './stripe.gateway';
import { Subscription } from './subscription.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Subscription, StripeEvent])],
  controllers: [BillingController],
  providers: [BillingService, MemberPlans, StripeGateway, PaymentsConfiguredGuard],
  exports: [BillingService, MemberPlans],
})
export class BillingModule {}
