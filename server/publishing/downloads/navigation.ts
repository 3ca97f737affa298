import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { escapeHtml } from '../../platform/mail/html';
import { AnswerWithHeaders } from '../../platform/common/api-error';

/**
 * A browser following a download link (a button, a signed link) rather than a script or a reading app:
 * it asks for HTML first. Whatever it gets is saved as the download, so an error or a wait answered as
 * JSON would become a "book" of a few bytes (docs/formats.md "Downloads").
 */
export const isNavigation = (req: Request): boolean => /\btext\/html\b/i.test(req.headers.accept ?? '');

/** A small page without scripts saying what happened and where to go back. */
export function smallPage(title: string, message: string, bookCode?: string): string {
  const back = bookCode
    ? `<p><a href="/book-detail/${encodeURIComponent(bookCode)}">Back to the book</a></p>`
    : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${back}</body></html>`,
  ].join('');
}

/** The book code of a download route's path (`/api/v1/downloads/{code}/…`), for the page's link back. */
function bookCodeOf(req: Request): string | undefined {
  const code = (req.params as Record<string, string | undefined> | undefined)?.bookCode;
  if (code) return code;
  const match = /\/downloads\/([^/?]+)\//.exec(req.originalUrl);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * The API's error answers (`{ message }`, written by the ErrorFilter) as a small HTML page, for a browser's
 * navigation: set on the response before routing (private-no-store.ts), so that every error of these
 * routes, a guard's included, is turned into a page the same way.
 */
export function htmlErrorsFor(req: Request, res: Response): void {
  // The downloads only: OPDS shares the middleware, and its feeds are read by apps, not saved as files.
  if (!isNavigation(req) || req.method === 'HEAD' || !req.originalUrl.startsWith('/api/v1/downloads/'))
    return;
  const json = res.json.bind(res);
  res.json = (body: { message?: unknown }) => {
    if (res.statusCode < 400) return json(body);
    const message = typeof body?.message === 'string' ? body.message : 'This download failed.';
    res.removeHeader('Content-Disposition');
    return res.type('html').send(smallPage('This download is not available', message, bookCodeOf(req)));
  };
}

/**
 * An error that carries headers of its own (Retry-After, WWW-Authenticate): set here, then answered as
 * every error is, `{ message }` with its status.
 */
@Catch(AnswerWithHeaders)
export class AnswerWithHeadersFilter implements ExceptionFilter {
  catch(exception: AnswerWithHeaders, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [name, value] of Object.entries(exception.headers)) res.setHeader(name, value);
    res.status(exception.getStatus()).json(exception.getResponse());
  }
}
