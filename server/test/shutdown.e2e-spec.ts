import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { SHUTDOWN_GRACE_MS } from '../http/keep-alive';
import { startServer } from './harness';

const FILE_BYTES = 48 * 1024 * 1024;

/**
 * Stopping the server (a deploy, `systemctl restart`): connections are kept alive 65 s between requests
 * (server/http/keep-alive.ts), and no stop may wait for that. A media file larger than the loopback
 * buffers keeps an answer under way for as long as the client does not read.
 */
describe('A stopping server', () => {
  async function serverWithBigFile() {
    // The local store, whatever the pass: the file is written straight into its folder.
    const server = await startServer(undefined, { MEDIA_STORE: 'local' });
    mkdirSync(join(server.storageDir, 'media', 'big'), { recursive: true });
    writeFileSync(join(server.storageDir, 'media', 'big', 'file.bin'), Buffer.alloc(FILE_BYTES, 1));
    const socket = net.connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /media/big/file.bin HTTP/1.1\r\nHost: localhost\r\n\r\n');
    // Bytes of the answer received (head and body); once it has begun, the client reads nothing more
    // until told to.
    const read = { bytes: 0 };
    const begun = new Promise((resolve) => socket.once('data', resolve));
    socket.on('data', (chunk: Buffer) => (read.bytes += chunk.length));
    await begun;
    socket.pause();
    return { server, socket, read };
  }

  /** Resolves with the milliseconds the stop took, or rejects past `withinMs`. */
  function timedStop(stop: Promise<void>, withinMs: number): Promise<number> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const late = setTimeout(() => reject(new Error(`the stop took over ${withinMs} ms`)), withinMs);
      stop.then(() => {
        clearTimeout(late);
        resolve(Date.now() - started);
      }, reject);
    });
  }

  it('lets an answer under way finish, then stops at once, not when the kept-alive connection times out', async () => {
    const { server, socket, read } = await serverWithBigFile();
    socket.on('error', () => undefined); // a cut fails the test below, not the worker
    const cutAll = jest.spyOn(server.app.getHttpServer(), 'closeAllConnections');
    const stop = timedStop(server.close(), 20_000);
    // Read only once the server has stopped listening: before, Node's own close would find the
    // connection idle (the stop first waits for the modules' hooks), and the test would prove nothing.
    while (server.app.getHttpServer().listening) await new Promise((resolve) => setTimeout(resolve, 20));
    const whole = new Promise<void>((resolve) =>
      socket.on('data', () => {
        if (read.bytes > FILE_BYTES) resolve();
      }),
    );
    socket.resume();
    await whole; // the whole file arrived: the stop did not cut an answer that was moving
    await stop;
    // The connection, now idle, was closed as such (it stayed open 65 s, and so did the stop), not cut
    // at the end of the grace period, whatever the time a loaded machine took.
    expect(cutAll).not.toHaveBeenCalled();
    socket.destroy();
  });

  it('cuts a connection whose client stopped reading once the grace period is over', async () => {
    const { server, socket } = await serverWithBigFile();
    const cut = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => undefined);
    const took = await timedStop(server.close(), SHUTDOWN_GRACE_MS + 15_000);
    expect(took).toBeGreaterThanOrEqual(SHUTDOWN_GRACE_MS - 1_000);
    socket.resume();
    await cut;
  });
});
