import { planGivesAccess } from './plan-access';

const NOW = new Date('2026-11-22T12:00:00Z');
const LATER = new Date('2026-12-01T00:00:00Z');
const EARLIER = new Date('2026-11-01T00:00:00Z');

describe(planGivesAccess.name, () => {
  it.each([
    ['trialing', LATER, true],
    ['trialing', null, true],
    ['active', LATER, true],
    // Renewal webhooks can arrive a little after the period's end: an active plan stays active.
    ['active', EARLIER, true],
    ['canceled', LATER, true],
    ['canceled', EARLIER, false],
    ['canceled', null, false],
    ['past_due', LATER, false],
    ['unpaid', LATER, false],
    ['incomplete', LATER, false],
    ['incomplete_expired', LATER, false],
    ['paused', LATER, false],
    ['none', null, false],
    ['something_new', LATER, false],
  ])('%s with the period ending %p gives access: %p', (status, currentPeriodEnd, expected) => {
    expect(planGivesAccess({ status: status, currentPeriodEnd: currentPeriodEnd }, NOW)).toBe(expected);
  });

  it('gives none without a plan', () => {
    expect(planGivesAccess(null, NOW)).toBe(false);
  });

  it('ends a canceled plan at the very end of its period', () => {
    expect(planGivesAccess({ status: 'canceled', currentPeriodEnd: NOW }, NOW)).toBe(false);
  });
});
