import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const logger = new Logger('HTTP');

/**
 * Gives every request an id (echoed in X-Request-Id and in 500 bodies) and logs one line when it ends:
 * method, path without the query string, status and duration. Never bodies, queries or headers, which
 * can hold passwords and tokens.
 */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  const id = randomUUID();
  res.setHeader('X-Request-Id', id);
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const path = req.originalUrl.split('?')[0];
    logger.log(`${req.method} ${path} ${res.statusCode} ${ms.toFixed(1)}ms id=${id}`);
  });
  next();
}
