import { chromium, type Browser } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaled, SERVER_START_MS } from '../scripts/test-limits.cjs';
import { PROJECT_ROOT } from '../server/platform/paths';
import { expect, test } from './helpers/fixtures';
import { adminSession, newBookChapter, removeBook, type Session } from './helpers/admin';

/**
 * Issue 35 (docs/deploy.md, "TLS on one host"): deploy/nginx.conf as it is shipped, run by Debian's nginx
 * with a self-signed certificate in front of the journeys' server. Over HTTPS the page registers the
 * service worker (offline downloads need it), media answers Range through the proxy, and a 200 MB
 * recording uploads through it.
 */
test.describe.configure({ mode: 'serial', timeout: SERVER_START_MS });

const UPLOAD_BYTES = 200 * 1024 * 1024;
/** Debian's nginx, outside an ordinary user's PATH. */
const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
let folder: string;
let nginx: ChildProcess | undefined;
let origin: string;
let httpPort: number;
let browser: Browser | undefined;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Replaces what a self-hoster edits in the shipped file; a line that is no longer there fails the test. */
function adapted(site: string, edits: Array<[RegExp, string]>): string {
  return edits.reduce((text, [pattern, replacement]) => {
    if (!pattern.test(text)) throw new Error(`deploy/nginx.conf no longer has ${pattern}`);
    return text.replace(pattern, replacement);
  }, site);
}

/** An HTTPS request that trusts the test's own certificate, with a body streamed from a file. */
function send(
  path: string,
  options: {
    method: string;
    headers?: Record<string, string | number>;
    body?: () => NodeJS.ReadableStream[];
  },
) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
    (resolve, reject) => {
      const request = httpsRequest(
        `${origin}${path}`,
        { method: options.method, headers: options.headers, rejectUnauthorized: false },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
          );
        },
      );
      request.on('error', reject);
      const parts = options.body?.() ?? [];
      const next = () => {
        const part = parts.shift();
        if (!part) return request.end();
        part.on('end', next);
        part.pipe(request, { end: false });
      };
      next();
    },
  );
}

test.beforeAll(async ({ baseURL }) => {
  folder = mkdtempSync(join(tmpdir(), 'lingonovel-nginx-'));
  // nginx's workers run as another user when the tests run as root: they must reach the folder.
  chmodSync(folder, 0o755);
  const openssl = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(folder, 'key.pem'),
      '-out',
      join(folder, 'cert.pem'),
    ],
    { encoding: 'utf8' },
  );
  expect(openssl.status, openssl.stderr).toBe(0);
  const [http, https] = [await freePort(), await freePort()];
  httpPort = http;
  const upstream = new URL(baseURL!).host;
  const site = adapted(readFileSync(join(PROJECT_ROOT, 'deploy', 'nginx.conf'), 'utf8'), [
    [/server 127\.0\.0\.1:3000;/, `server ${upstream};`],
    [/ {4}listen 80;\n {4}listen \[::\]:80;/, `    listen 127.0.0.1:${http};`],
    [
      / {4}listen 443 ssl http2;\n {4}listen \[::\]:443 ssl http2;/,
      `    listen 127.0.0.1:${https} ssl http2;`,
    ],
    [/\/etc\/letsencrypt\/live\/books\.example\.org\/fullchain\.pem/, join(folder, 'cert.pem')],
    [/\/etc\/letsencrypt\/live\/books\.example\.org\/privkey\.pem/, join(folder, 'key.pem')],
  ]);
  writeFileSync(join(folder, 'site.conf'), site);
  const temp = join(folder, 'temp');
  mkdirSync(temp, { mode: 0o777 });
  chmodSync(temp, 0o777);
  writeFileSync(
    join(folder, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(folder, 'nginx.pid')};`,
      `error_log ${join(folder, 'error.log')} warn;`,
      'events {}',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `  ${kind}_temp_path ${temp}/${kind};`,
      ),
      `  include ${join(folder, 'site.conf')};`,
      '}',
    ].join('\n'),
  );
  nginx = spawn(NGINX, ['-p', folder, '-c', join(folder, 'nginx.conf')], { stdio: 'ignore' });
  origin = `https://127.0.0.1:${https}`;
  await expect
    .poll(async () => (await send('/readyz', { method: 'GET' }).catch(() => ({ status: 0 }))).status, {
      timeout: scaled(30_000),
    })
    .toBe(200);
  // A self-signed certificate the browser is told to accept, as a self-hoster's own browser would.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--ignore-certificate-errors'],
  });
});

test.afterAll(async () => {
  await browser?.close();
  nginx?.kill('SIGTERM');
  if (folder) rmSync(folder, { recursive: true, force: true });
});

test('plain HTTP is sent to HTTPS; over HTTPS the page registers the service worker', async () => {
  const redirect = await fetch(`http://127.0.0.1:${httpPort}/books`, { redirect: 'manual' });
  expect(redirect.status).toBe(301);
  expect(redirect.headers.get('location')).toBe('https://127.0.0.1/books');

  const context = await browser!.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  await page.goto(`${origin}/books`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const scope = await page.evaluate(() =>
    navigator.serviceWorker.ready.then((registration) => registration.scope),
  );
  expect(scope).toBe(`${origin}/`);
  await context.close();
});

test('media answers a Range request through the proxy with 206 and its part', async () => {
  const list = await send('/api/v1/guest/list-book', { method: 'GET' });
  expect(list.status).toBe(200);
  const [book] = (JSON.parse(list.text) as { data: Array<{ sample_audio: string }> }).data;
  const part = await send(book.sample_audio, { method: 'GET', headers: { Range: 'bytes=0-99' } });
  expect(part.status).toBe(206);
  expect(part.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);
  expect(part.headers['content-length']).toBe('100');
});

test('a 200 MB recording of a chapter uploads through the proxy and is staged', async ({ request }) => {
  const session: Session = await adminSession(request);
  const { bookCode, chapterId } = await newBookChapter(request, session, null);
  try {
    // Three seconds (a tone, then a pause) looped to 200 MB, written without holding it in memory.
    const unit = join(folder, 'unit.wav');
    const recording = join(folder, 'recording.wav');
    const tone = spawnSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      "aevalsrc='0.4*sin(2*PI*440*t)*lt(mod(t,3),2)':s=16000:d=3",
      '-ac',
      '1',
      '-c:a',
      'pcm_s16le',
      unit,
    ]);
    expect(tone.status, String(tone.stderr)).toBe(0);
    const loops = Math.ceil(UPLOAD_BYTES / statSync(unit).size) + 1;
    const looped = spawnSync('ffmpeg', [
      '-v',
      'error',
      '-stream_loop',
      String(loops),
      '-i',
      unit,
      '-c',
      'copy',
      recording,
    ]);
    expect(looped.status, String(looped.stderr)).toBe(0);
    const size = statSync(recording).size;
    expect(size).toBeGreaterThanOrEqual(UPLOAD_BYTES);

    const boundary = `----lingonovel${Date.now()}`;
    const text = 'One.\n\nTwo.\n\nThree.\n';
    const head = [
      `--${boundary}\r\nContent-Disposition: form-data; name="text"; filename="chapter.txt"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="recording"; filename="chapter.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    ].join('');
    const tail = `\r\n--${boundary}--\r\n`;
    const { Readable } = await import('node:stream');
    const staged = await send(`/api/v1/admin/chapter/${chapterId}/import`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${session.token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': Buffer.byteLength(head) + size + Buffer.byteLength(tail),
      },
      body: () => [Readable.from([head]), createReadStream(recording), Readable.from([tail])],
    });
    expect(staged.status, staged.text.slice(0, 500)).toBe(200);
    const preview = JSON.parse(staged.text) as { data: { import_id: string; rows: unknown[] } };
    expect(preview.data.rows).toHaveLength(3);
    const discarded = await send(`/api/v1/admin/import/${preview.data.import_id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${session.token}` },
    });
    expect(discarded.status).toBe(200);
  } finally {
    await removeBook(request, session, bookCode);
  }
});
