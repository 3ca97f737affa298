import { BadRequestException, HttpException, HttpStatus, PayloadTooLargeException } from '@nestjs/common';
import type { Request } from 'express';
import { KB, MB } from '../../platform/common/body-limits';

const size = (bytes: number) =>
  bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / KB)} KB`;

export function bodyTooLarge(limit: number): PayloadTooLargeException {
  return new PayloadTooLargeException(`The request body is too large. The limit is ${size(limit)}.`);
}

/** A Content-Length over the limit is refused before a byte of the body is read. */
export function refuseDeclaredOver(req: Request, limit: number): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw bodyTooLarge(limit);
}

/**
 * Reads a whole body into memory, stopping the moment it passes `limit` (chunked bodies included). Unlike
 * body-parser, a refused body is not read to its end: the answer goes out and the connection is closed
 * (see unread-body.ts).
 */
export function readBody(req: Request, limit: number): Promise<Buffer> {
  refuseDeclaredOver(req, limit);
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') {
    return Promise.reject(
      new HttpException(
        { message: 'The request body has an unsupported encoding.' },
        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFail);
      req.off('close', onFail);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        req.pause();
        reject(bodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onFail = () => {
      stop();
      reject(new BadRequestException('The request body was cut off before its end.'));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onFail);
    req.once('close', onFail);
  });
}
