import type { APIRoute, GetStaticPaths } from 'astro';
import sharp from 'sharp';
import { ICONS, iconSvg } from '../../lib/app-icon';

// Made once at build time into dist/web/client/icons/, served as static files.
export const prerender = true;

export const getStaticPaths = (() =>
  ICONS.map((icon) => ({ params: { icon: icon.name }, props: icon }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const { size, maskable } = props as (typeof ICONS)[number];
  const png = await sharp(Buffer.from(iconSvg(maskable)), { density: (72 * size) / 64 })
    .resize(size, size)
    .png()
    .toBuffer();
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
