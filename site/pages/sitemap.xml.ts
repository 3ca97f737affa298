import type { APIRoute } from 'astro';
import { absolute, PUBLIC_PAGES } from '../lib/public-pages';

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** Every public page and book, with the date the catalogue behind it last changed. */
export const GET: APIRoute = async ({ locals }) => {
  const books = await locals.catalogue.listBooks();
  const latest = books.reduce((max, book) => (book.updated_at > max ? book.updated_at : max), '');
  const entry = (path: string, lastmod?: string) =>
    `  <url><loc>${escape(absolute(locals.publicUrl, path))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;
  const urls = [
    ...PUBLIC_PAGES.map((path) => entry(path, latest || undefined)),
    ...books.map((book) => entry(`/book-detail/${book.book_code}`, book.updated_at)),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
