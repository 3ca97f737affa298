import type { NextFunction, Request, Response } from 'express';
import type { Socket } from 'node:net';
import { LINGER_BYTES, LINGER_MS } from '../../common/body-limits';

/** True while the request still has body bytes on the wire that nobody has read. */
function bodyStillArriving(req: Request): boolean {
  if (req.complete) return false;
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Node would read (and throw away) the whole rest of the body to keep the connection alive. Instead, like
 * nginx's lingering close, we read on for at most LINGER_BYTES or LINGER_MS, half-closing once the answer
 * is out, then destroy the connection: cutting at once could reset it before the client read the answer.
 */
function lingerThenDestroy(req: Request, socket: Socket): void {
  const cut = () => socket.destroy();
  let drained = 0;
  // Reading here (rather than letting Node dump the body) is what lets us count, and stop.
  req.unpipe();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > LINGER_BYTES) cut();
  });
  req.resume();
  // Node calls destroySoon() once the answer is finished, because the answer says Connection: close.
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(cut, LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
  };
}

/**
 * Mounted first. Bodies are read only after the guards, by the route that wants them, and only up to
 * their limit; any answer sent while the body is still arriving (a 401, a 404, a 413…) closes the
 * connection instead of reading the rest.
 */
export function closeUnreadBodies(req: Request, res: Response, next: NextFunction): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with .apply(this, …)
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
    if (bodyStillArriving(req) && !res.headersSent) {
      res.setHeader('Connection', 'close');
      lingerThenDestroy(req, req.socket);
    }
    return writeHead.apply(this, args);
  } as Response['writeHead'];
  next();
}
