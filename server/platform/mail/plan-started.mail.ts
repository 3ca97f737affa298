import { escapeHtml } from './html';
import type { OutgoingMail } from './mail.service';

export interface PlanStarted {
  to: string;
  name: string;
  /** The member's time zone (IANA), for the dates; null: UTC. */
  timeZone: string | null;
  /** Stripe's status when the subscription started: `trialing` or `active`. */
  status: 'trialing' | 'active';
  trialDays: number;
  trialEndsAt: Date | null;
  currentPeriodEnd: Date | null;
  publicUrl: string;
}

/**
 * The confirmation the checkout page promises ("You will receive an email confirmation"): what started,
 * when a trial ends and the first payment is due, or when a paid plan renews, and where to manage it.
 * The amount is Stripe's to state (its receipts and the billing portal): the price charged is the one
 * configured in Stripe (docs/payments.md), which this server does not know.
 */
export function planStartedMail(plan: PlanStarted): OutgoingMail {
  const day = (date: Date) =>
    new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: plan.timeZone ?? 'UTC' }).format(date);
  const profile = `${plan.publicUrl}/profile`;
  const trial = plan.status === 'trialing';
  const subject = trial
    ? 'Your Premium Plus free trial has started'
    : 'Your Premium Plus subscription has started';
  const paragraphs = trial
    ? [
        `Your ${plan.trialDays}-day free trial of Premium Plus has started: every chapter of every book is open to you. Nothing has been charged today.`,
        plan.trialEndsAt
          ? `The trial ends on ${day(plan.trialEndsAt)}. Your first payment is due on that day, unless you cancel before then.`
          : 'Your first payment is due when the trial ends, unless you cancel before then.',
      ]
    : [
        'Your Premium Plus subscription is active: every chapter of every book is open to you.',
        ...(plan.currentPeriodEnd ? [`It renews on ${day(plan.currentPeriodEnd)}.`] : []),
      ];
  const manage = 'To see your plan, or to cancel it, open your profile:';
  const text = [`Hello ${plan.name},`, '', ...paragraphs.flatMap((p) => [p, '']), manage, profile].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(plan.name)},</p>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p>${escapeHtml(manage)} <a href="${escapeHtml(profile)}">${escapeHtml(profile)}</a></p>`,
  ].join('\n');
  return { to: plan.to, subject, text, html };
}
