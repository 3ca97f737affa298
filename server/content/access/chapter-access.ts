/**
 * Who may read which chapter, as a rule on facts: a book's free chapter (which one is, the catalogue
 * decides: content/catalogue/free-chapters.ts) is open to everyone; every other chapter needs an administrator or
 * a member whose plan gives access (billing decides: accounts/billing/plan-access.ts). Callers never apply it
 * themselves: they ask `Access` (access.service.ts), which gathers the facts and answers refusals.
 */

/** The reader as this rule sees them: an administrator, or whether their plan gives access. */
export interface Reader {
  isAdmin: boolean;
  planGivesAccess: boolean;
}

/** `free`: anyone; `granted`: this reader; `sign-in`: a visitor (401); `upgrade`: a member without access (403). */
export type ChapterAccess = 'free' | 'granted' | 'sign-in' | 'upgrade';

export function chapterAccess(freeChapter: boolean, reader: Reader | null): ChapterAccess {
  if (freeChapter) return 'free';
  if (!reader) return 'sign-in';
  if (reader.isAdmin || reader.planGivesAccess) return 'granted';
  return 'upgrade';
}

export const SIGN_IN_TO_READ = 'Sign in to read this chapter.';
export const PREMIUM_CHAPTER =
  'This chapter is part of Premium Plus. Start your free 30-day trial to read on.';
