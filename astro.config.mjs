// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { writeFile } from 'node:fs/promises';
import { INLINE_SCRIPTS } from './site/lib/inline-scripts.ts';

/**
 * Writes the site's own inline scripts beside the build (dist/web/inline-scripts.json), so the server
 * allows exactly these in its CSP (server/http/script-hashes.ts) without importing the site's source.
 */
const inlineScriptsManifest = {
  name: 'lingonovel:inline-scripts',
  hooks: {
    /** @param {{ dir: URL }} options the client output folder, dist/web/client/ */
    'astro:build:done': async ({ dir }) => {
      await writeFile(new URL('../inline-scripts.json', dir), JSON.stringify(INLINE_SCRIPTS) + '\n');
    },
  },
};

// Pages render inside the Nest process (middleware mode), so they can call services directly.
export default defineConfig({
  srcDir: './site',
  publicDir: './site/public',
  outDir: './dist/web',
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  integrations: [react(), inlineScriptsManifest],
  trailingSlash: 'never',
  build: { format: 'file' },
  // The design system's shared sheet (global.css with ui.css, about 11 KB) is inlined rather than a
  // render-blocking request on every page (Lighthouse on the reader, docs/benchmarks.md); Astro inlines
  // stylesheets under Vite's asset limit, which also turns imported assets this small into data: URIs.
  vite: { build: { assetsInlineLimit: 12288 } },
  compressHTML: true,
  devToolbar: { enabled: false },
});
