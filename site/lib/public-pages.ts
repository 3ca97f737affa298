/** The public pages' list is the server's (the sitemap writes it): server/content/catalogue/public-pages.ts. */
export { absolute, PUBLIC_PAGES } from '../../server/content/catalogue/public-pages';

/**
 * A language's page, by its URL word (CatalogueService.languages()'s `key`, e.g. "pt-pt"): one per
 * language with books, except "none".
 */
export const learnPath = (key: string) => `/learn/${key}`;
