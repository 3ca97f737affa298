import { describePlan } from './plan';

const plan = (status: string, fields: Partial<Parameters<typeof describePlan>[0] & object> = {}) => ({
  status,
  trial_ends_at: null,
  current_period_end: null,
  cancel_at_period_end: false,
  trial_used: false,
  offer: 'trial' as const,
  ...fields,
});

const day = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(new Date(iso));
const FUTURE = '2099-03-01T00:00:00.000Z';
const PAST = '2001-03-01T00:00:00.000Z';

describe(describePlan.name, () => {
  it('names each state a member can be in', () => {
    expect(describePlan(undefined)).toBe('You are on the free plan.');
    expect(describePlan(plan('none'))).toBe('You are on the free plan.');
    expect(describePlan(plan('trialing', { trial_ends_at: FUTURE }))).toBe(
      `You are on the Premium Plus free trial, which ends on ${day(FUTURE)}.`,
    );
    expect(describePlan(plan('active', { current_period_end: FUTURE }))).toBe(
      `You are on Premium Plus. It renews on ${day(FUTURE)}.`,
    );
    expect(describePlan(plan('past_due'))).toBe(
      'Your last Premium Plus payment did not go through. Please update your card.',
    );
  });

  it('tells a canceled member until when they keep access', () => {
    const ending = plan('active', { current_period_end: FUTURE, cancel_at_period_end: true });
    expect(describePlan(ending)).toBe(
      `Your Premium Plus plan is canceled; you keep access until ${day(FUTURE)}.`,
    );
    expect(describePlan(plan('canceled', { current_period_end: FUTURE }))).toBe(
      `Your Premium Plus plan is canceled; you keep access until ${day(FUTURE)}.`,
    );
    expect(describePlan(plan('canceled', { current_period_end: PAST }))).toBe(
      'Your Premium Plus plan has ended.',
    );
  });

  it('still says something for statuses it does not know', () => {
    expect(describePlan(plan('incomplete_expired'))).toBe('Your Premium Plus plan is incomplete expired.');
  });
});
