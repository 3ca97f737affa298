import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Subscription } from './subscription.entity';

/** A member's plan as the access rule needs it: Stripe's status and the end of the paid period. */
export interface MemberPlan {
  status: string;
  currentPeriodEnd: Date | null;
}

/**
 * The one way other modules learn a member's plan. Billing owns the subscriptions table; the access rule
 * (reading/access.ts) asks here instead of reading it, so a change in how plans are kept stays in billing/.
 */
@Injectable()
export class MemberPlans {
  constructor(@InjectRepository(Subscription) private readonly subscriptions: Repository<Subscription>) {}

  /** The member's plan, or null for a member who never subscribed. */
  async planOf(userId: number): Promise<MemberPlan | null> {
    const row = await this.subscriptions.findOne({
      select: { status: true, currentPeriodEnd: true },
      where: { userId },
    });
    return row ? { status: row.status, currentPeriodEnd: row.currentPeriodEnd } : null;
  }
}
