import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../platform/paths';
import { assertBuilt, MAIN } from './built-server';

/**
 * The built app in a child process of its own (so that its memory is its own, not the test runner's),
 * answering over IPC what its PageCache holds and its memory. `--expose-gc` only lets it collect garbage
 * on request, before a measure; it changes nothing else.
 */
const PROBE = `
require('reflect-metadata');
// npm test's SQLite pass records the spec's SQL, this process's too (scripts/sql-shapes.cjs).
if (process.env.TEST_SQL_LOG) require('./scripts/sql-shapes.cjs').logBothEngines(process.env.TEST_SQL_LOG, process.env.PROBE_SPEC);
const dist = process.env.PROBE_DIST;
const { loadConfig } = require(dist + '/platform/config.js');
const { createApp } = require(dist + '/http/create-app.js');
const { PageCache } = require(dist + '/http/page-cache.js');
const { Book } = require(dist + '/content/catalogue/entities/book.entity.js');
const { DemoSeedService } = require(dist + '/seed/demo-seed.service.js');
const { DataSource } = require('typeorm');
(async () => {
  const app = await createApp(loadConfig(), { pages: process.env.PROBE_PAGES === '1', logger: ['error', 'warn'] });
  if (process.env.PROBE_DEMO === '1') await app.get(DemoSeedService).seedOnce();
  await app.listen(0, '127.0.0.1');
  const cache = app.get(PageCache);
  const state = () => {
    const { rss, heapUsed, external } = process.memoryUsage();
    return { bytes: cache.sizeInBytes, maxBytes: cache.maxBytes, entries: cache.size, rss, heapUsed, external };
  };
  const settle = () => (global.gc(), global.gc());
  process.on('message', async ({ op, books }) => {
    if (op === 'books') {
      const rows = app.get(DataSource).getRepository(Book);
      for (let at = 0; at < books.length; at += 200) await rows.insert(books.slice(at, at + 200));
      cache.clear();
    }
    if (op === 'clear') cache.clear();
    if (op !== 'state') settle();
    process.send(state());
  });
  process.send({ url: 'http://127.0.0.1:' + app.getHttpServer().address().port });
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

export interface ProbeState {
  /** What the page cache counts it holds, its budget and its entries. */
  bytes: number;
  maxBytes: number;
  entries: number;
  rss: number;
  heapUsed: number;
  external: number;
}

/** A book's row, every column given (the Book entity's fields), for the `books` operation. */
export type ProbeBook = Record<string, string | number | null>;

export interface Probe {
  url: string;
  child: ChildProcess;
  /** The state as it is (`state`), after a full GC (`settle`), after clearing the cache and a GC (`clear`). */
  ask(op: 'state' | 'settle' | 'clear'): Promise<ProbeState>;
  /** Inserts these rows straight into the books table, then clears the cache (and collects garbage). */
  addBooks(books: ProbeBook[]): Promise<ProbeState>;
  /** The process's resident memory as the kernel counts it (/proc, Linux). */
  rss(): number;
  output(): string;
  stop(): Promise<void>;
}

export async function startProbe(options: {
  env: Record<string, string>;
  pages?: boolean;
  demo?: boolean;
}): Promise<Probe> {
  assertBuilt();
  const child = spawn(process.execPath, ['--expose-gc', '-e', PROBE], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      PROBE_DIST: join(MAIN, '..'),
      PROBE_PAGES: options.pages ? '1' : '0',
      PROBE_DEMO: options.demo ? '1' : '0',
      PROBE_SPEC: expect.getState().testPath ?? 'unknown',
      ...options.env,
    },
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<Error>((resolve) =>
    child.once('exit', () => resolve(new Error(`the server exited:\n${output}`))),
  );
  // A server that never says where it listens is stopped, so no process outlives the test.
  let timer: NodeJS.Timeout | undefined;
  const url = await Promise.race([
    new Promise<string>((resolve) =>
      child.once('message', (message) => resolve((message as { url: string }).url)),
    ),
    exited.then((error) => Promise.reject(error)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the server did not start:\n${output}`));
      }, 100_000);
    }),
  ]).finally(() => clearTimeout(timer));
  // An answer, or the server's end (a crash, an out-of-memory kill) with what it printed.
  const send = (message: object) =>
    Promise.race([
      new Promise<ProbeState>((resolve) => {
        child.once('message', (answer) => resolve(answer as ProbeState));
        child.send(message);
      }),
      exited.then((error) => Promise.reject(error)),
    ]);
  return {
    url,
    child,
    ask: (op) => send({ op }),
    addBooks: (books) => send({ op: 'books', books }),
    rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(killer);
    },
  };
}
