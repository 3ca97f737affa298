import { chapterAccess } from './chapter-access';

describe(chapterAccess.name, () => {
  const member = (planGivesAccess: boolean) => ({ isAdmin: false, planGivesAccess });

  it('opens the first chapter to everyone', () => {
    expect(chapterAccess(true, null)).toBe('free');
    expect(chapterAccess(true, member(false))).toBe('free');
  });

  it('asks visitors to sign in for other chapters', () => {
    expect(chapterAccess(false, null)).toBe('sign-in');
  });

  it('offers the plan to members without access, and reads for those with it', () => {
    expect(chapterAccess(false, member(false))).toBe('upgrade');
    expect(chapterAccess(false, member(true))).toBe('granted');
  });

  it('lets administrators read everything', () => {
    expect(chapterAccess(false, { isAdmin: true, planGivesAccess: false })).toBe('granted');
  });
});
