/** The public pages search engines should know about (books are added from the catalogue). */
export const PUBLIC_PAGES = [
  '/',
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
