import type { CefrLevel } from '../../server/content/catalogue/book-levels';

/**
 * What each CEFR level means to a learner, beside its code ("A2 · Elementary"). One table for the
 * catalogue's pages (/learn/{language}) and the admin's book form and detail, so a level is never named
 * two ways.
 */
export const LEVEL_NAMES: Record<CefrLevel, string> = {
  A1: 'Beginner',
  A2: 'Elementary',
  B1: 'Intermediate',
  B2: 'Upper intermediate',
  C1: 'Advanced',
  C2: 'Proficient',
};
