/** The public pages' list is the server's (the sitemap writes it): server/catalogue/public-pages.ts. */
export { absolute, PUBLIC_PAGES } from '../../server/catalogue/public-pages';
