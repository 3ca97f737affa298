import { Global, Module } from '@nestjs/common';
import { BillingModule } from '../../accounts/billing/billing.module';
import { Access } from './access.service';
import { MediaIndex } from './media-index';

/**
 * Who may have what: the one access rule (`Access`) and what the media gate needs to enforce it without a
 * query per request (`MediaIndex`). Global: every feature that serves a phrase, a chapter or a book asks.
 */
@Global()
@Module({
  imports: [BillingModule],
  providers: [Access, MediaIndex],
  exports: [Access, MediaIndex],
})
export class AccessModule {}
