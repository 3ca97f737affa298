import type { NextFunction, Request, Response } from 'express';
import type { Socket } from 'node:net';
import { LINGER_BYTES, LINGER_MS } from '../../platform/common/body-limits';

/** True while the request still has body bytes on the wire that nobody has read. */
function bodyStillArriving(req: Request): boolean {
  if (req.complete) return false;
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/** The socket's native handle: with the HTTP parser reading it directly, pausing the stream is not enough. */
type NativeHandle = { reading?: boolean; readStop?: () => number };

/**
 * Stops reading this connection for good: a body parser may resume the request to read off the rest
 * (body-parser and multer do), and Node's HTTP parser reads the native handle directly.
 */
function stopReading(socket: Socket): void {
  socket.resume = () => socket;
  socket.pause();
  const handle = (socket as unknown as { _handle?: NativeHandle })._handle;
  handle?.readStop?.();
  if (handle) handle.reading = false;
}

/**
 * Node would read (and throw away) the whole rest of the body to keep the connection alive. Instead, like
 * nginx's lingering close, we read on for at most LINGER_BYTES, half-close once the answer is out, and
 * destroy the connection LINGER_MS later. Past LINGER_BYTES we stop reading rather than cut: a reset
 * while the client's bytes are still queued can reach it before it has read the answer, and the answer is
 * lost with the connection (seen on a loaded machine, whose loopback queues hold megabytes). Should
 * reading go on regardless (a Node whose internals differ), the connection is cut at 4 × LINGER_BYTES.
 */
function lingerThenDestroy(req: Request, socket: Socket): void {
  let timer: NodeJS.Timeout | undefined;
  const cutLater = () => {
    timer ??= setTimeout(() => socket.destroy(), LINGER_MS);
  };
  socket.once('close', () => clearTimeout(timer));
  let drained = 0;
  // Reading here (rather than letting Node dump the body) is what lets us count, and stop.
  req.unpipe();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > 4 * LINGER_BYTES) socket.destroy();
    else if (drained > LINGER_BYTES) {
      stopReading(socket);
      cutLater();
    }
  });
  req.resume();
  // Node calls destroySoon() once the answer is finished, because the answer says Connection: close.
  socket.destroySoon = () => {
    socket.end();
    cutLater();
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
