// The ceiling of the cache-hit rows: a bare node:http server handing out stored bytes, with no routing,
// no logging and no work per request. Run as its own process (as the app server is), on the answer the
// bench fetched from the app: `node bare-server.mjs PORT FILE`, FILE holding { status, headers, body }
// with the body in base64. It prints "ready" once listening.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [port, file] = process.argv.slice(2);
const stored = JSON.parse(readFileSync(file, 'utf8'));
const body = Buffer.from(stored.body, 'base64');
const headers = Object.entries(stored.headers).flat();

createServer((_req, res) => {
  res.writeHead(stored.status, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => console.log('ready'));
