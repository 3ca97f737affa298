/**
 * Who may read which chapter: the one place this is decided (controllers, media URLs and pages all ask
 * here). A book's free chapter (which one is, the catalogue decides: catalogue/free-chapters.ts) is open
 * to everyone; every other chapter needs an administrator or a member whose plan gives access (the plan
 * as billing reports it: billing/member-plans.ts).
 */

/** What the reader's plan looks like to this rule: Stripe's status and the end of the paid period. */
export interface PlanState {
  status: string;
  currentPeriodEnd: Date | null;
}

export interface Reader {
  isAdmin: boolean;
  plan: PlanState | null;
}

/**
 * A plan gives access while trialing or active, and while canceled with time left in the period it paid
 * for. past_due, unpaid, incomplete, incomplete_expired, paused, none, a canceled plan whose period has
 * ended, and anything Stripe may add later give none.
 */
export function planGivesAccess(plan: PlanState | null, now: Date): boolean {
  if (!plan) return false;
  if (plan.status === 'trialing' || plan.status === 'active') return true;
  if (plan.status === 'canceled') return plan.currentPeriodEnd !== null && plan.currentPeriodEnd > now;
  return false;
}

/** `free`: anyone; `granted`: this reader; `sign-in`: a visitor (401); `upgrade`: a member without access (403). */
export type ChapterAccess = 'free' | 'granted' | 'sign-in' | 'upgrade';

export function chapterAccess(freeChapter: boolean, reader: Reader | null, now: Date): ChapterAccess {
  if (freeChapter) return 'free';
  if (!reader) return 'sign-in';
  if (reader.isAdmin || planGivesAccess(reader.plan, now)) return 'granted';
  return 'upgrade';
}

export const SIGN_IN_TO_READ = 'Sign in to read this chapter.';
export const PREMIUM_CHAPTER =
  'This chapter is part of Premium Plus. Start your free 30-day trial to read on.';
