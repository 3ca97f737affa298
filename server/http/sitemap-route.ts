import type { NextFunction, Request, Response } from 'express';
import type { Sitemaps } from '../content/catalogue/sitemap';

const PATH = /^\/sitemap(?:-([1-9]\d{0,5}))?\.xml$/;

/**
 * `/sitemap.xml` and its numbered parts, streamed from the catalogue (content/catalogue/sitemap.ts) and kept out of
 * the page cache. Fresh on every request, as the pages are after an edit: crawlers revalidate it.
 */
export function sitemapRoute(sitemaps: Sitemaps, publicUrl: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const match = PATH.exec(req.path);
    if (!match || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    res.setHeader('Content-Type', 'application/xml; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=0, must-revalidate');
    sitemaps
      .write(res, publicUrl, match[1] ? Number(match[1]) : null)
      .then((written) => {
        if (!written) {
          res.removeHeader('Content-Type');
          res.removeHeader('Cache-Control');
          next();
        }
      })
      // Once the first bytes are out, a failure can only cut the answer short.
      .catch((error: unknown) => (res.headersSent ? res.destroy(error as Error) : next(error)));
  };
}
