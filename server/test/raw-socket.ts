import net, { type Socket } from 'node:net';
import type { TestServer } from './harness';

/**
 * Counts, on the server's side, the bytes each connection read: loopback buffers hold several MB, so what
 * a client managed to write says little about what the server took in.
 */
export function countServerReads(server: TestServer): { lastConnection(): Promise<number> } {
  const closed: Promise<number>[] = [];
  server.app.getHttpServer().on('connection', (socket: Socket) => {
    closed.push(new Promise((resolve) => socket.once('close', () => resolve(socket.bytesRead))));
  });
  return { lastConnection: () => closed[closed.length - 1] };
}

export interface RawExchange {
  status: number;
  head: string;
  body: string;
  /** Bytes of the body the client managed to hand to its socket before the server closed. */
  sent: number;
  /** The server closed the connection (the client never closed it first). */
  closedByServer: boolean;
}

/**
 * Sends a request over a raw socket: the head as given, then up to `bodyBytes` in chunks (chunked
 * transfer-encoding unless the head declares a Content-Length), stopping when the server closes.
 */
export function rawRequest(
  server: TestServer,
  head: string,
  bodyBytes: number,
  /** Sent first, then filler: e.g. the opening of a multipart part that never ends. */
  prefix: Buffer = Buffer.alloc(0),
  /** Reads nothing of the answer for this long, while writing on: a client on a busy machine. */
  readAfterMs = 0,
): Promise<RawExchange> {
  const filler = Buffer.alloc(64 * 1024, 0x61);
  const { port } = new URL(server.baseUrl);
  const chunked = /transfer-encoding:\s*chunked/i.test(head);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const received: Buffer[] = [];
    let sent = 0;
    let gaveUp = false;
    let finished = false;
    socket.on('data', (data) => received.push(data));
    if (readAfterMs > 0) {
      socket.pause();
      setTimeout(() => socket.resume(), readAfterMs);
    }
    socket.on('error', () => undefined); // EPIPE or a reset once the server has closed: expected.
    socket.on('close', () => {
      finished = true;
      const text = Buffer.concat(received).toString('latin1');
      const [headText, ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headText)?.[1] ?? 0);
      resolve({
        status,
        head: headText,
        body: rest.join('\r\n\r\n'),
        sent,
        closedByServer: !gaveUp,
      });
    });
    socket.write(head.replace(/\n/g, '\r\n') + '\r\n\r\n');
    const pump = () => {
      while (!finished && sent < bodyBytes) {
        const chunk = sent === 0 && prefix.length > 0 ? prefix : filler;
        const piece = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent));
        const framed = chunked
          ? Buffer.concat([Buffer.from(piece.length.toString(16) + '\r\n'), piece, Buffer.from('\r\n')])
          : piece;
        sent += piece.length;
        if (!socket.write(framed)) return void socket.once('drain', pump);
      }
      if (!finished && chunked) socket.write('0\r\n\r\n');
    };
    pump();
    // A server that never answers would hang the test: give up after a while.
    setTimeout(() => {
      gaveUp = true;
      socket.destroy();
    }, 20_000).unref();
  });
}
