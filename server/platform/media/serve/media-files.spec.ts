import express, { type RequestHandler } from 'express';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalMediaStore } from '../store/local-media-store';
import { IMMUTABLE, mediaFiles } from './media-files';
import { storeMediaHandler } from './store-media-handler';

/**
 * An empty file under /media, served by express.static (a folder) and by the handler that streams from a
 * bucket (here over a folder, as it reads any store): RFC 9110 §14.1.1 makes a non-zero suffix
 * satisfiable on an empty file, and no Content-Range can name zero bytes, so it is the file, a 200.
 */
describe(mediaFiles.name, () => {
  const root = mkdtempSync(join(tmpdir(), 'media-files-'));
  const store = new LocalMediaStore(root);
  const servers: Server[] = [];

  beforeAll(() => writeFileSync(join(root, 'empty.vtt'), ''));
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
    rmSync(root, { recursive: true, force: true });
  });

  async function baseOf(handler: RequestHandler): Promise<string> {
    const server = express().use('/media', handler).listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((listening) => server.once('listening', listening));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/media/empty.vtt`;
  }

  it('answers a non-zero suffix of an empty file with the empty file (200), and bytes=-0 with a 416', async () => {
    for (const [what, handler] of [
      ['a folder', mediaFiles(store, IMMUTABLE)],
      ['a bucket', storeMediaHandler(store, { cacheControl: IMMUTABLE })],
    ] as const) {
      const url = await baseOf(handler);
      const answer = async (range: string) => {
        const res = await fetch(url, { headers: { Range: range } });
        const body = await res.arrayBuffer();
        return { status: res.status, range: res.headers.get('content-range'), bytes: body.byteLength };
      };
      expect([what, await answer('bytes=-5')]).toEqual([what, { status: 200, range: null, bytes: 0 }]);
      const none = await answer('bytes=-0');
      expect([what, none.status, none.range]).toEqual([what, 416, 'bytes */0']);
    }
  });
});
