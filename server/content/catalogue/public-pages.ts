/**
 * The public pages search engines should know about, besides the catalogue's own (books, languages, free
 * chapters), which the sitemap adds from the database. The site's pages read this list too.
 */
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

export const absolute = (publicUrl: string, path: string) =>
  path === '/' ? `${publicUrl}/` : `${publicUrl}${path}`;
