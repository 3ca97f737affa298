import { ErrorAnswer } from '../../platform/common/error-answer';
import {
  Body,
  Controller,
  HttpCode,
  Post,
  Req,
  UseGuards,
  UseInterceptors,
  type RawBodyRequest,
} from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentUser, Public } from '../auth/auth.decorators';
import { FormRedirectInterceptor } from '../../http/form-redirect.interceptor';
import { User } from '../users/user.entity';
import {
  ALREADY_SUBSCRIBED_ANSWER,
  CheckoutDto,
  PORTAL_LINK,
  RedirectAnswer,
  WebhookAnswer,
} from './billing.dto';
import { BillingService } from './billing.service';
import { PaymentsConfiguredGuard } from './payments-configured.guard';

@ErrorAnswer(503, 'Payments are not configured on this installation.')
@Controller()
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Post('user/create-subscription')
  @HttpCode(200)
  @UseGuards(PaymentsConfiguredGuard)
  @UseInterceptors(FormRedirectInterceptor)
  @ApiOkResponse({ type: RedirectAnswer })
  @ErrorAnswer(409, ALREADY_SUBSCRIBED_ANSWER, PORTAL_LINK)
  createSubscription(@CurrentUser() user: User, @Body() dto: CheckoutDto) {
    return this.billing.checkout(user, dto);
  }

  @Post('user/start-trial')
  @HttpCode(200)
  @UseGuards(PaymentsConfiguredGuard)
  @UseInterceptors(FormRedirectInterceptor)
  @ApiOkResponse({ type: RedirectAnswer })
  @ErrorAnswer(409, ALREADY_SUBSCRIBED_ANSWER, PORTAL_LINK)
  startTrial(@CurrentUser() user: User, @Body() dto: CheckoutDto) {
    return this.billing.startTrial(user, dto);
  }

  @Post('user/billing-portal')
  @HttpCode(200)
  @UseGuards(PaymentsConfiguredGuard)
  @UseInterceptors(FormRedirectInterceptor)
  @ApiOkResponse({ type: RedirectAnswer })
  portal(@CurrentUser() user: User) {
    return this.billing.portal(user);
  }

  @Public()
  @Post('billing/webhook')
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookAnswer })
  webhook(@Req() req: RawBodyRequest<Request>) {
    return this.billing.webhook(req.rawBody, req.header('stripe-signature'));
  }
}
