// The ceiling of the cache-hit rows: a bare node:http server handing out stored bytes, with no routing
// beyond a map lookup, no logging and no work per request. Run as its own process (as the app server is),
// on the answers the bench fetched from the app: `node bare-server.mjs PORT FILE`, FILE holding
// { [path with its query]: { status, headers, body } } with each body in base64. It prints "ready" once
// listening.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [port, file] = process.argv.slice(2);
const answers = new Map(
  Object.entries(JSON.parse(readFileSync(file, 'utf8'))).map(([path, stored]) => [
    path,
    {
      status: stored.status,
      headers: Object.entries(stored.headers).flat(),
      body: Buffer.from(stored.body, 'base64'),
    },
  ]),
);

createServer((req, res) => {
  const answer = answers.get(req.url);
  if (!answer) return void res.writeHead(404).end();
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}).listen(Number(port), '127.0.0.1', () => console.log('ready'));
