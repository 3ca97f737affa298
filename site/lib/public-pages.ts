/** The public pages search engines should know about (books and languages are added from the catalogue). */
export const PUBLIC_PAGES = [
  '/',
  '/books',
  '/lingostory',
  '/lingonovel-story',
  '/ling',
  '/subs',
  '/check',
  '/about',
  '/support',
  '/purchase',
];

/**
 * A language's page, by its URL word (CatalogueService.languages()'s `key`, e.g. "pt-pt"): one per
 * language with books, except "none".
 */
export const learnPath = (key: string) => `/learn/${key}`;

export const absolute = (publicUrl: string, path: string) =>
  path === '/' ? `${publicUrl}/` : `${publicUrl}${path}`;
