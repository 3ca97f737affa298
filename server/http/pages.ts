import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SITE_BUILD_DIR } from '../platform/paths';
import type { PageLocals } from './page-locals';
import type { PageCache } from './page-cache';
import { cachedRoute } from './cached-route';
import { PAGE_ROUTES } from './query-rules';

type AstroHandler = (
  req: Request,
  res: Response,
  next: NextFunction,
  locals: PageLocals,
) => Promise<void> | void;

const YEAR_MS = 31_536_000_000;

/**
 * Rendered every time: pages whose HTML depends on the query string, and the admin shells, whose paths
 * carry any id a client invents (caching them by path would let anyone fill the cache).
 */
const UNCACHED = [/^\/checkout$/, /^\/admin(\/|$)/];

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
 * revalidated, and every other path that is not the API goes to Astro through the page cache. A path
 * Astro does not know gets our own 404 page with status 404.
 */
export async function mountSite(server: Express, locals: PageLocals, cache: PageCache): Promise<void> {
  const handler = await loadHandler();
  const client = join(SITE_BUILD_DIR, 'client');
  const notFound = (req: Request, res: Response) => {
    req.url = '/404';
    void handler(req, res, () => res.status(404).type('text/plain').send('Not found'), locals);
  };

  server.use(
    '/_astro',
    express.static(join(client, '_astro'), {
      immutable: true,
      maxAge: YEAR_MS,
      index: false,
    }),
  );
  server.use(express.static(client, { index: false, maxAge: 0, redirect: false }));
  const astro = cachedRoute(
    cache,
    (req, res, pass) => handler(req, res, pass, locals),
    (req, res) => notFound(req, res),
    PAGE_ROUTES,
  );
  server.use((req, res, next) => {
    if (req.path === '/api' || req.path.startsWith('/api/')) return next();
    // Pages only show; Astro would answer other methods (TRACE, POST…) with a bare 500.
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.status(405).setHeader('Allow', 'GET, HEAD');
      return void res
        .type('text/plain')
        .send(`${req.method} is not allowed here. Pages answer GET and HEAD.`);
    }
    if (UNCACHED.some((pattern) => pattern.test(req.path))) {
      return void handler(req, res, () => notFound(req, res), locals);
    }
    astro(req, res, next);
  });
}
