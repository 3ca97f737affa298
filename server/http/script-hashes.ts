import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SITE_BUILD_DIR } from '../platform/paths';

/** Astro's island runtime and the hydration directives our pages use, which Astro writes inline. */
const ASTRO_SCRIPTS = [
  'astro/runtime/server/astro-island.prebuilt.js',
  // Chosen instead of the one above when NODE_ENV is development.
  'astro/runtime/server/astro-island.prebuilt-dev.js',
  'astro/runtime/client/load.prebuilt.js',
  'astro/runtime/client/idle.prebuilt.js',
  'astro/runtime/client/visible.prebuilt.js',
  'astro/runtime/client/media.prebuilt.js',
  'astro/runtime/client/only.prebuilt.js',
];

const hash = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/**
 * The site's own inline scripts (site/lib/inline-scripts.ts), as its build wrote them beside the pages
 * (astro.config.mjs): the server reads the build, never the site's source.
 */
async function siteScripts(): Promise<string[]> {
  const file = join(SITE_BUILD_DIR, 'inline-scripts.json');
  const scripts: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!Array.isArray(scripts) || !scripts.every((script) => typeof script === 'string'))
    throw new Error(`${file} is not a list of scripts: run npm run build`);
  return scripts;
}

/**
 * The CSP hashes of every inline script the site ships, taken from the scripts themselves (our own from
 * the build, Astro's from its runtime, as Astro's own experimental CSP does), never from a rendered page:
 * hashing what a page holds would approve an injected script too.
 */
export async function inlineScriptHashes(): Promise<string[]> {
  const astro = await Promise.all(
    ASTRO_SCRIPTS.map(async (name) => ((await import(name)) as { default: string }).default),
  );
  return [...(await siteScripts()), ...astro].map(hash);
}
