import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SITE_BUILD_DIR } from '../paths';
import type { PageLocals } from './page-locals';

type AstroHandler = (req: Request, res: Response, next: NextFunction, locals: PageLocals) => void;

const YEAR_SECONDS = 31_536_000;

export class SiteNotBuiltError extends Error {
  constructor() {
    super(
      `The site has not been built (${join(SITE_BUILD_DIR, 'server', 'entry.mjs')} is missing). Run: npm run build`,
    );
  }
}

async function loadHandler(): Promise<AstroHandler> {
  const entry = join(SITE_BUILD_DIR, 'server', 'entry.mjs');
  if (!existsSync(entry)) throw new SiteNotBuiltError();
  // A real dynamic import (module NodeNext keeps it), because Astro's build output is ESM.
  const module = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  return module.handler;
}

/**
 * Mounts the built site: hashed assets under /_astro are immutable for a year, other public files are
 * revalidated, and every other path that is not the API goes to Astro. A path Astro does not know gets
 * our own 404 page with status 404.
 */
export async function mountSite(server: Express, locals: PageLocals): Promise<void> {
  const handler = await loadHandler();
  const client = join(SITE_BUILD_DIR, 'client');
  server.use(
    '/_astro',
    express.static(join(client, '_astro'), {
      immutable: true,
      maxAge: YEAR_SECONDS * 1000,
      index: false,
      fallthrough: false,
    }),
  );
  server.use(express.static(client, { index: false, maxAge: 0, redirect: false }));
  server.use((req, res, next) => {
    if (req.path.startsWith('/api/') || req.path === '/api') return next();
    handler(req, res, () => renderNotFound(req, res, handler, locals), locals);
  });
}

function renderNotFound(req: Request, res: Response, handler: AstroHandler, locals: PageLocals): void {
  req.url = '/404';
  handler(req, res, () => res.status(404).type('text/plain').send('Not found'), locals);
}
