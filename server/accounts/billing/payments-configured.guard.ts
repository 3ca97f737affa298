import { Injectable, ServiceUnavailableException, type CanActivate } from '@nestjs/common';
import { StripeGateway } from './stripe.gateway';
import { PAYMENTS_OFF } from './billing.service';

/**
 * A self-hosted install without Stripe keys answers 503 to the payment calls, after the sign-in check
 * and before any look at the request's body.
 */
@Injectable()
export class PaymentsConfiguredGuard implements CanActivate {
  constructor(private readonly stripe: StripeGateway) {}

  canActivate(): boolean {
    if (!this.stripe.enabled) throw new ServiceUnavailableException(PAYMENTS_OFF);
    return true;
  }
}
