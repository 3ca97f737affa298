/**
 * A book's levels, without the database's entity (the site's pages import them too): the difficulty of
 * the original product (docs/product.md) and the CEFR level a learner needs.
 */
export const DIFFICULTIES = ['Easy', 'Medium', 'Hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

/** The Common European Framework's levels, from beginner to mastery. */
export const CEFR_LEVELS = ['A1', 'A2', 'B1', 'B2', 'C1', 'C2'] as const;
export type CefrLevel = (typeof CEFR_LEVELS)[number];
