import type { APIRoute } from 'astro';
import { BRAND, ICONS, PAPER } from '../lib/app-icon';

// The web app manifest (docs/offline.md): written at build time, served as a static file.
export const prerender = true;

export const GET: APIRoute = () =>
  new Response(
    JSON.stringify(
      {
        id: '/',
        name: 'Lingonovel',
        short_name: 'Lingonovel',
        description:
          'Audio books for language learners: read and listen phrase by phrase, online or offline.',
        lang: 'en',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        theme_color: BRAND,
        background_color: PAPER,
        icons: ICONS.map((icon) => ({
          src: `/icons/${icon.name}.png`,
          sizes: `${icon.size}x${icon.size}`,
          type: 'image/png',
          purpose: icon.maskable ? 'maskable' : 'any',
        })),
      },
      null,
      2,
    ),
    { headers: { 'Content-Type': 'application/manifest+json' } },
  );
