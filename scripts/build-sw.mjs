// Builds the service worker (site/sw/sw.ts, docs/offline.md) after the site: esbuild bundles it with its
// Workbox modules, then Workbox's injectManifest writes into it the list of files to keep on the device,
// each with its revision. Run by `npm run build:site`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { injectManifest } from 'workbox-build';

const root = new URL('..', import.meta.url).pathname;
const client = join(root, 'dist/web/client');
const bundled = join(root, 'dist/web/sw.bundle.js');

/** Files of the admin's islands (and its waveform library) are never needed offline: not kept. */
const adminIslands = readdirSync(join(root, 'site/islands/admin'))
  .filter((name) => name.endsWith('.tsx'))
  .map((name) => basename(name, '.tsx'));
const adminOnly = [...adminIslands, 'wavesurfer', 'regions'].map((name) => `_astro/${name}.*`);

/**
 * The offline page is rendered by the server (as every page is); its revision changes with any change to
 * the pages' build, so a new build brings a new copy.
 */
function pagesRevision() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else hash.update(entry).update(readFileSync(full));
    }
  };
  walk(join(root, 'dist/web/server'));
  return hash.digest('hex').slice(0, 16);
}

await build({
  entryPoints: [join(root, 'site/sw/sw.ts')],
  outfile: bundled,
  bundle: true,
  format: 'iife',
  minify: true,
  target: 'es2020',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});

const { count, size, warnings } = await injectManifest({
  swSrc: bundled,
  swDest: join(client, 'sw.js'),
  globDirectory: client,
  globPatterns: ['_astro/**/*.{js,css}', 'icons/*.png', 'favicon.svg', 'manifest.webmanifest'],
  globIgnores: adminOnly,
  // Hashed names are their own revision.
  dontCacheBustURLsMatching: /^_astro\//,
  additionalManifestEntries: [{ url: '/offline', revision: pagesRevision() }],
});
rmSync(bundled);
for (const warning of warnings) console.warn(`service worker: ${warning}`);
console.log(`service worker: ${count} files kept on the device (${(size / 1024).toFixed(0)} KB)`);
