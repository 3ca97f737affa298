import { changedRows, sql } from '../../platform/database/sql';
import {
  BadRequestException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  ServiceUnavailableException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type Stripe from 'stripe';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { ErrorWithDetails, RuleFailed, ValidationFailed } from '../../platform/common/api-error';
import { Clock } from '../../platform/common/clock';
import { MailService } from '../../platform/mail/mail.service';
import { planStartedMail, type PlanStarted } from '../../platform/mail/plan-started.mail';
import { planGivesAccess } from './plan-access';
import type { User } from '../users/user.entity';
import { checkoutReturnUrl } from './return-path';
import { StripeGateway } from './stripe.gateway';
import { Subscription } from './subscription.entity';
import {
  toSubscriptionSummary,
  type CheckoutDto,
  type PlanOffer,
  type RedirectAnswer,
  type SubscriptionSummary,
  type WebhookAnswer,
} from './billing.dto';

export const PAYMENTS_OFF = 'Payments are not configured on this server.';
export const TRIAL_DAYS = 30;
export const ALREADY_SUBSCRIBED =
  'You already have Premium Plus. To change or cancel it, open the billing portal.';
export const PAYMENT_PENDING =
  'Your Premium Plus subscription is waiting for a payment. Update your card in the billing portal instead of starting a second subscription.';

/**
 * Stripe still holds a subscription in these states, and charges it again once its card works: a new
 * Checkout would bill the member twice. Only `canceled` and `incomplete_expired` are over.
 */
const STILL_HELD = new Set(['past_due', 'unpaid', 'incomplete', 'paused']);

const fromUnix = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);
const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * Premium Plus through Stripe Checkout. Card data never reaches this server: we create Checkout and
 * Billing Portal sessions, and learn what happened from Stripe's signed webhooks.
 */
@Injectable()
export class BillingService {
  private readonly logger = new Logger(BillingService.name);

  constructor(
    private readonly stripe: StripeGateway,
    private readonly db: DataSource,
    @InjectRepository(Subscription) private readonly subscriptions: Repository<Subscription>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly mail: MailService,
  ) {}

  get enabled(): boolean {
    return this.stripe.enabled;
  }

  async summary(userId: number): Promise<SubscriptionSummary> {
    const current = await this.subscriptions.findOneBy({ userId });
    return toSubscriptionSummary(current, this.offerFor(current));
  }

  /** What the plan pages offer: the same rule that refuses a second Checkout decides it. */
  private offerFor(current: Subscription | null): PlanOffer {
    if (this.blocked(current)) return 'manage';
    return current?.hadTrial ? 'subscribe' : 'trial';
  }

  /**
   * Why a new Checkout would start a second subscription: the plan gives access, or Stripe still holds
   * one waiting for a payment (`pending`). Null when a Checkout may start.
   */
  private blocked(current: Subscription | null): 'access' | 'pending' | null {
    if (current?.stripeSubscriptionId && STILL_HELD.has(current.status)) return 'pending';
    return planGivesAccess(current, this.clock.now()) ? 'access' : null;
  }

  /** Subscribes straight away, without a trial (also for a member whose trial was used up). */
  async checkout(user: User, dto: CheckoutDto): Promise<RedirectAnswer> {
    const priceId = this.ourPrice(dto);
    const current = await this.subscriptions.findOneBy({ userId: user.id });
    await this.refuseWhilePlanGivesAccess(current);
    return { url: await this.createSession(user, current, priceId, null, dto.next) };
  }

  async startTrial(user: User, dto: CheckoutDto): Promise<RedirectAnswer> {
    const priceId = this.ourPrice(dto, true);
    const current = await this.subscriptions.findOneBy({ userId: user.id });
    await this.refuseWhilePlanGivesAccess(current);
    if (current?.hadTrial) throw new RuleFailed('You have already had your free trial.');
    return { url: await this.createSession(user, current, priceId, TRIAL_DAYS, dto.next) };
  }

  async portal(user: User): Promise<RedirectAnswer> {
    const current = await this.subscriptions.findOneBy({ userId: user.id });
    if (!current?.stripeCustomerId) throw new RuleFailed('You have no subscription to manage yet.');
    return { url: await this.portalSession(current.stripeCustomerId) };
  }

  /** Verifies and applies one webhook event, exactly once: its id is stored in the same transaction as its effect. */
  async webhook(rawBody: Buffer | undefined, signature: string | undefined): Promise<WebhookAnswer> {
    if (!this.stripe.enabled || !this.config.stripe.webhookSecret)
      throw new ServiceUnavailableException(PAYMENTS_OFF);
    let event: Stripe.Event;
    try {
      event = this.stripe.constructEvent(rawBody ?? Buffer.alloc(0), signature ?? '');
    } catch {
      throw new BadRequestException('The webhook signature is not valid.');
    }
    // Only database work inside: with SQLite's one connection, nothing else may interleave with it.
    const applied = await this.db.transaction(async (tx) => {
      // Claims the event id. On PostgreSQL a concurrent delivery of the same event waits here on the
      // primary key until this transaction ends, then inserts nothing and returns no row.
      const claimed = await sql<unknown[]>(
        tx,
        `INSERT INTO stripe_events (id, type) VALUES (?, ?) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [event.id, event.type],
      );
      if (claimed.length === 0) return null;
      return { started: await this.apply(tx, event) };
    });
    // Mail goes out once the change is committed, and without holding up Stripe's delivery. A mail server
    // that refuses it is logged: the claim stands, so a replay of the event sends no second one.
    if (applied?.started) this.confirm(applied.started);
    return { received: true, duplicate: !applied };
  }

  private confirm(plan: PlanStarted): void {
    this.mail.send(planStartedMail(plan)).catch((error: unknown) => {
      this.logger.error(
        `The confirmation mail of a new subscription was not sent: ${(error as Error)?.message}`,
      );
    });
  }

  private ourPrice(dto: CheckoutDto, defaultToOurs = false): string {
    const requested = dto.price_id ?? dto.priceId ?? (defaultToOurs ? this.config.stripe.priceId : undefined);
    if (!requested) throw ValidationFailed.field('price_id', 'The price id field is required.');
    // Only our own price may reach Stripe, so nobody can subscribe to something else through us.
    if (requested !== this.config.stripe.priceId)
      throw ValidationFailed.field('price_id', 'This price is not offered here.');
    return requested;
  }

  /**
   * Stripe would take a second Checkout on the same customer as a second subscription, billed on top of
   * the one running (a trial included), so a member whose plan gives access is sent to the billing portal
   * instead, whatever the pages offered them. The link is a convenience: when Stripe cannot make one, the
   * refusal stands and `portal_url` is null (POST user/billing-portal makes one later).
   */
  private async refuseWhilePlanGivesAccess(current: Subscription | null): Promise<void> {
    const blocked = this.blocked(current);
    if (!blocked) return;
    const pending = blocked === 'pending';
    let portalUrl: string | null = null;
    if (current?.stripeCustomerId)
      portalUrl = await this.portalSession(current.stripeCustomerId).catch((error: unknown) => {
        this.logger.warn(`No billing portal link for a refused checkout: ${(error as Error)?.message}`);
        return null;
      });
    throw new ErrorWithDetails(HttpStatus.CONFLICT, {
      message: pending ? PAYMENT_PENDING : ALREADY_SUBSCRIBED,
      portal_url: portalUrl,
    });
  }

  private portalSession(customerId: string): Promise<string> {
    return this.stripe.createPortalSession(customerId, `${this.config.publicUrl}/profile`);
  }

  private async createSession(
    user: User,
    current: Subscription | null,
    priceId: string,
    trialDays: number | null,
    next: string | undefined,
  ): Promise<string> {
    return this.stripe.createCheckoutSession({
      priceId,
      trialDays,
      userId: user.id,
      email: user.email,
      customerId: current?.stripeCustomerId ?? null,
      // The chapter rides along both ways (validated in CheckoutDto): paid or not, the way back is there.
      successUrl: checkoutReturnUrl(this.config.publicUrl, 'success', next),
      cancelUrl: checkoutReturnUrl(this.config.publicUrl, 'canceled', next),
    });
  }

  /** Applies one event; answers the plan that started with it, when one did (for its confirmation mail). */
  private async apply(tx: EntityManager, event: Stripe.Event): Promise<PlanStarted | null> {
    switch (event.type) {
      case 'checkout.session.completed':
        await this.linkCheckout(tx, event.data.object);
        return null;
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return this.updateSubscription(tx, event.data.object, event.type === 'customer.subscription.deleted');
      default:
        return null;
    }
  }

  private async linkCheckout(tx: EntityManager, session: Stripe.Checkout.Session): Promise<void> {
    const userId = Number(session.client_reference_id);
    if (!Number.isSafeInteger(userId) || !(await tx.existsBy('User', { id: userId }))) {
      this.logger.warn(`Checkout session ${session.id} names no known user`);
      return;
    }
    const row = await this.rowOf(tx, userId);
    row.stripeCustomerId = idOf(session.customer) ?? row.stripeCustomerId;
    row.stripeSubscriptionId = idOf(session.subscription) ?? row.stripeSubscriptionId;
    await tx.save(row);
  }

  /**
   * The member's subscription row, made when missing. Two events for one member can arrive at once (the
   * checkout and the subscription it created): the insert that loses waits on the key and inserts
   * nothing, rather than failing on it as a read-then-insert would on PostgreSQL.
   */
  private async rowOf(tx: EntityManager, userId: number): Promise<Subscription> {
    await sql(tx, `INSERT INTO subscriptions (user_id) VALUES (?) ON CONFLICT (user_id) DO NOTHING`, [
      userId,
    ]);
    return tx.findOneByOrFail(Subscription, { userId });
  }

  private async updateSubscription(
    tx: EntityManager,
    subscription: Stripe.Subscription,
    deleted: boolean,
  ): Promise<PlanStarted | null> {
    const customerId = idOf(subscription.customer);
    let row = customerId ? await tx.findOneBy(Subscription, { stripeCustomerId: customerId }) : null;
    if (!row) {
      const userId = Number(subscription.metadata?.user_id);
      if (!Number.isSafeInteger(userId) || !(await tx.existsBy('User', { id: userId }))) {
        this.logger.warn(`Subscription ${subscription.id} belongs to no known user`);
        return null;
      }
      row = await this.rowOf(tx, userId);
      row.stripeCustomerId = customerId;
    }
    // Newer Stripe API versions keep the period on the subscription's items.
    const periodEnd =
      (subscription as unknown as { current_period_end?: number }).current_period_end ??
      subscription.items?.data?.[0]?.current_period_end;
    row.stripeSubscriptionId = subscription.id;
    row.status = deleted ? 'canceled' : subscription.status;
    row.trialEndsAt = fromUnix(subscription.trial_end);
    row.currentPeriodEnd = fromUnix(periodEnd);
    row.cancelAtPeriodEnd = subscription.cancel_at_period_end;
    row.hadTrial = row.hadTrial || subscription.trial_end !== null;
    await tx.save(row);
    const status = row.status;
    return status === 'trialing' || status === 'active' ? this.claimConfirmation(tx, row, status) : null;
  }

  /**
   * A subscription has started (its first event as `trialing` or `active`, whichever Stripe sends first):
   * claims its confirmation mail, once per Stripe subscription. The claim is a conditional UPDATE in the
   * event's transaction: of two events of one subscription applied at once on PostgreSQL, the second waits
   * on the row and then matches nothing.
   */
  private async claimConfirmation(
    tx: EntityManager,
    row: Subscription,
    status: 'trialing' | 'active',
  ): Promise<PlanStarted | null> {
    const subscriptionId = row.stripeSubscriptionId;
    if (!subscriptionId) return null;
    const claimed = await changedRows(
      tx,
      `UPDATE subscriptions SET confirmed_subscription_id = ?
       WHERE user_id = ? AND (confirmed_subscription_id IS NULL OR confirmed_subscription_id <> ?)`,
      [subscriptionId, row.userId, subscriptionId],
    );
    const user = claimed ? await tx.findOneBy<User>('User', { id: row.userId }) : null;
    if (!user) return null;
    return {
      to: user.email,
      name: user.name,
      timeZone: user.timeZone,
      status,
      trialDays: TRIAL_DAYS,
      trialEndsAt: row.trialEndsAt,
      currentPeriodEnd: row.currentPeriodEnd,
      publicUrl: this.config.publicUrl,
    };
  }
}
