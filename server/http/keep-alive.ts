import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

/**
 * How long an idle kept-alive connection stays open. Node's default (5 s) is shorter than the idle time
 * of the clients and proxies in front of it (nginx's and AWS's load balancers keep 60 s): such a client
 * may send its next request on a connection the server is closing that very moment, and gets a reset
 * (a 502 at a proxy, `ECONNRESET` at a client). Closing later than they do leaves the close to them.
 * Node's own clients (fetch) read the `Keep-Alive: timeout=65` this gives and close two seconds early.
 */
export const KEEP_ALIVE_MS = 65_000;

/** How long a stopping server lets answers under way finish before it cuts their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

export function keepConnectionsOpen(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
}

/**
 * A stop never waits on a kept-alive connection. Node closes the idle ones once, when the server stops
 * listening; one it counts as busy then (an answer just ending) stayed open until its 65 s ran out, and
 * so did the stop. So idle connections are closed again every 250 ms while answers under way end, and
 * whatever is still open after SHUTDOWN_GRACE_MS is cut, as a process manager would cut it.
 */
@Injectable()
export class ConnectionsOnShutdown implements BeforeApplicationShutdown {
  constructor(private readonly adapter: HttpAdapterHost) {}

  beforeApplicationShutdown(): void {
    const server = this.adapter.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) return;
    const idle = setInterval(() => server.closeIdleConnections(), 250);
    const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    idle.unref();
    cut.unref();
    server.once('close', () => {
      clearInterval(idle);
      clearTimeout(cut);
    });
  }
}
