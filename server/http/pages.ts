import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import type { OutgoingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SITE_BUILD_DIR } from '../paths';
import type { PageLocals } from './page-locals';
import { PageCache, sendCachedPage, type CapturedResponse } from './page-cache';

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
 * Runs Astro's handler but keeps what it writes instead of sending it; null when Astro has no such page.
 * The response object is borrowed and handed back untouched.
 */
function capture(
  handler: AstroHandler,
  req: Request,
  res: Response,
  locals: PageLocals,
): Promise<CapturedResponse | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status = 200;
    let headers: OutgoingHttpHeaders = {};
    const { writeHead, write, end } = res;
    const restore = () => Object.assign(res, { writeHead, write, end });
    const toBuffer = (chunk: unknown) =>
      Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string | Uint8Array);
    Object.assign(res, {
      writeHead(code: number, ...rest: unknown[]) {
        status = code;
        headers = (rest.find((arg) => typeof arg === 'object' && arg !== null) as OutgoingHttpHeaders) ?? {};
        return res;
      },
      write(chunk: unknown, ...rest: unknown[]) {
        chunks.push(toBuffer(chunk));
        const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
        callback?.();
        return true;
      },
      end(chunk?: unknown) {
        if (chunk !== undefined && typeof chunk !== 'function') chunks.push(toBuffer(chunk));
        restore();
        resolve({ status, headers, body: Buffer.concat(chunks) });
        return res;
      },
    });
    Promise.resolve(
      handler(
        req,
        res,
        () => {
          restore();
          resolve(null);
        },
        locals,
      ),
    ).catch((error: unknown) => {
      restore();
      reject(error);
    });
  });
}

function sendCaptured(res: Response, captured: CapturedResponse): void {
  res.writeHead(captured.status, captured.headers);
  res.end(captured.body);
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
      fallthrough: false,
    }),
  );
  server.use(express.static(client, { index: false, maxAge: 0, redirect: false }));
  server.use((req, res, next) => {
    if (req.path === '/api' || req.path.startsWith('/api/')) return next();
    if (
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      UNCACHED.some((pattern) => pattern.test(req.path))
    ) {
      return void handler(req, res, () => notFound(req, res), locals);
    }
    const hit = cache.get(req.path);
    if (hit) return sendCachedPage(req, res, hit);
    // Rendered without its query string: what the cache keeps must not depend on it.
    req.url = req.path;
    cache
      .render(req.path, () => capture(handler, req, res, locals))
      .then(({ page, captured }) => {
        if (page) sendCachedPage(req, res, page);
        else if (captured) sendCaptured(res, captured);
        else if (captured === null) notFound(req, res);
        else void handler(req, res, () => notFound(req, res), locals);
      })
      .catch(next);
  });
}
