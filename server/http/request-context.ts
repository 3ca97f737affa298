import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { LogFormat } from '../platform/config';

const logger = new Logger('HTTP');

/** A proxy's id is reused only if it cannot smuggle anything into a log line or a header. */
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every answer names its request's id, first among its headers. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Express's compiled `trust proxy` setting (`app.get('trust proxy fn')`): TRUST_PROXY. */
export type TrustFn = (address: string | undefined, hop: number) => boolean;

/**
 * The id a proxy in front already gave this request (so its logs and ours can be joined), when
 * `trusts` (TRUST_PROXY) trusts the peer that sent it and the id is sane; otherwise a new UUID.
 * Anyone else could choose ids to confuse the logs.
 */
function requestId(req: IncomingMessage, trusts: TrustFn): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming !== 'string' || !SANE_ID.test(incoming)) return randomUUID();
  return trusts(req.socket.remoteAddress, 0) ? incoming : randomUUID();
}

/**
 * Gives a request its id, for its caller to echo in X-Request-Id (the error filter puts it in 500 bodies), and logs
 * one line when its answer is finished: method, path without the query string, status, duration and the
 * id. Never bodies, queries or headers, which can hold passwords and tokens. LOG_FORMAT=json writes the
 * same fields as one JSON object (through the app's logger, server/http/app-logger.ts). Called before
 * anything else reads or rewrites the request: by the Express chain (requestContext) and by the page
 * cache's fast path in front of it (server/http/cached-hits.ts), so both log alike.
 */
export function trackRequest(
  format: LogFormat,
  req: IncomingMessage,
  res: ServerResponse,
  trusts: TrustFn,
): string {
  const started = process.hrtime.bigint();
  // The URL as the client sent it: routing rewrites req.url later (mount points, the page cache's key).
  const url = req.url ?? '';
  const id = requestId(req, trusts);
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const path = url.split('?')[0];
    if (format === 'json')
      logger.log({
        msg: 'request completed',
        method: req.method,
        path,
        status: res.statusCode,
        duration_ms: Math.round(ms * 10) / 10,
        request_id: id,
      });
    else logger.log(`${req.method} ${path} ${res.statusCode} ${ms.toFixed(1)}ms id=${id}`);
  });
  return id;
}

/** trackRequest as the Express chain's middleware, with Express's own `trust proxy` setting. */
export function requestContext(format: LogFormat) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader(
      REQUEST_ID_HEADER,
      trackRequest(format, req, res, req.app.get('trust proxy fn') as TrustFn),
    );
    next();
  };
}
