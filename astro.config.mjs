// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';

// Pages render inside the Nest process (middleware mode), so they can call services directly.
export default defineConfig({
  srcDir: './site',
  publicDir: './site/public',
  outDir: './dist/web',
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  integrations: [react()],
  trailingSlash: 'never',
  build: { format: 'file' },
  compressHTML: true,
  devToolbar: { enabled: false },
});
