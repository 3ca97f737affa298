import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Clock } from '../../platform/common/clock';
import { planGivesAccess, type PlanState } from './plan-access';
import { Subscription } from './subscription.entity';

/**
 * The one way other modules learn about a member's plan. Billing owns the subscriptions table and the
 * rule of what a plan gives (plan-access.ts); the access rule (server/content/access/access.service.ts) asks here
 * instead of reading either, so a change in how plans are kept stays in billing/.
 */
@Injectable()
export class MemberPlans {
  constructor(
    @InjectRepository(Subscription) private readonly subscriptions: Repository<Subscription>,
    private readonly clock: Clock,
  ) {}

  /** The member's plan, or null for a member who never subscribed. */
  async planOf(userId: number): Promise<PlanState | null> {
    const row = await this.subscriptions.findOne({
      select: { status: true, currentPeriodEnd: true },
      where: { userId },
    });
    return row ? { status: row.status, currentPeriodEnd: row.currentPeriodEnd } : null;
  }

  /** Whether the member's plan gives access to every chapter now. */
  async givesAccess(userId: number): Promise<boolean> {
    return planGivesAccess(await this.planOf(userId), this.clock.now());
  }
}
