import type { APIRoute } from 'astro';

/** Crawlers stay out of the admin area and the API; the sitemap's address comes from PUBLIC_URL. */
export const GET: APIRoute = ({ locals }) =>
  new Response(
    [
      'User-agent: *',
      'Disallow: /admin',
      'Disallow: /api/',
      'Disallow: /dashboard',
      'Disallow: /profile',
      '',
      `Sitemap: ${locals.publicUrl}/sitemap.xml`,
      '',
    ].join('\n'),
    { headers: { 'Content-Type': 'text/plain; charset=utf-8' } },
  );
