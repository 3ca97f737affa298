import type { Server } from 'node:http';

/**
 * How long an idle kept-alive connection stays open. Node's default (5 s) is shorter than the idle time
 * of the clients and proxies in front of it (nginx's and AWS's load balancers keep 60 s): such a client
 * may send its next request on a connection the server is closing that very moment, and gets a reset
 * (a 502 at a proxy, `ECONNRESET` at a client). Closing later than they do leaves the close to them.
 * Node's own clients (fetch) read the `Keep-Alive: timeout=65` this gives and close two seconds early.
 */
export const KEEP_ALIVE_MS = 65_000;

export function keepConnectionsOpen(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
}
