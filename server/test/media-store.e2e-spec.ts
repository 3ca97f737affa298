import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadConfig } from '../platform/config';
import { MediaModule } from '../platform/media/media.module';
import { MediaService } from '../platform/media/media.service';
import { MEDIA_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import { createS3Client, S3MediaStore } from '../platform/media/store/s3-media-store';
import { ApiClient, newAdmin } from './api-client';
import { makeBook } from './books';
import { fixture, form, purgeAfterGrace } from './fixtures';
import { rawGet, startServer, tempStorage, type TestServer } from './harness';
import { startS3, type TestS3 } from './s3';

const CLIP = readFileSync(join(__dirname, 'fixtures', 'clip.mp3'));
const HOUR = 3_600_000;

interface Phrase {
  id: number;
  line_audio: string;
}

/** Media in an S3 bucket (s3rver, a real S3-compatible server), checked with the SDK, not through the app. */
describe('Media in an S3 bucket', () => {
  let s3: TestS3;
  let server: TestServer;
  let admin: ApiClient;
  let chapterIds: number[];
  let code: string;

  beforeAll(async () => {
    const storage = tempStorage();
    s3 = await startS3(`${storage}-s3`);
    server = await startServer(storage, s3.env);
    admin = (await newAdmin(server)).client;
    ({ code, chapterIds } = await makeBook(admin));
  });
  afterAll(async () => {
    await server.close();
    await s3.close();
  });

  const object = async (key: string) => {
    const res = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `media/${key}` }));
    return Buffer.from(await res.Body!.transformToByteArray());
  };
  const objectExists = (key: string) =>
    s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `media/${key}` })).then(
      () => true,
      () => false,
    );
  const keyOf = (url: string) => url.replace(/^\/media\//, '').replace(/\?.*$/, '');
  const addPhrase = async (chapterId: number) => {
    const res = await admin.post<{ data: Phrase }>(
      'admin/phrase',
      form({
        chapter_id: chapterId,
        phrase: 'Salut.',
        dictionary: 'salut — hi',
        line_audio: [fixture('clip.mp3'), 'c.mp3'],
      }),
    );
    if (res.status !== 200) throw new Error(res.text);
    return res.body.data;
  };

  it('stores an uploaded clip as an object with exactly the uploaded bytes, nothing in the media folder', async () => {
    const phrase = await addPhrase(chapterIds[0]);
    // Byte for byte: an aws-chunked upload would have kept its framing and CRC32 trailer in the object.
    expect((await object(keyOf(phrase.line_audio))).equals(CLIP)).toBe(true);
    const head = await s3.client.send(
      new HeadObjectCommand({ Bucket: s3.bucket, Key: `media/${keyOf(phrase.line_audio)}` }),
    );
    expect([head.ContentLength, head.ContentType]).toEqual([CLIP.length, 'audio/mpeg']);
    expect(() => readFileSync(join(server.storageDir, 'media', keyOf(phrase.line_audio)))).toThrow();
  });

  it('serves public media with Range 206, 416, 304 and the immutable cache header', async () => {
    const book = await admin.get<{ data: { image_path: string; sample_audio: string } }>(
      `admin/book/${code}`,
    );
    const url = server.baseUrl + book.body.data.sample_audio;
    const whole = await rawGet(url);
    expect(whole.status).toBe(200);
    expect(whole.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(whole.headers['content-type']).toBe('audio/mpeg');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.body.equals(CLIP)).toBe(true);

    const part = await rawGet(url, { Range: 'bytes=10-109' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-109/${CLIP.length}`);
    expect(part.body.equals(CLIP.subarray(10, 110))).toBe(true);
    const tail = await rawGet(url, { Range: 'bytes=-5' });
    expect([tail.status, tail.body.equals(CLIP.subarray(-5))]).toEqual([206, true]);

    const beyond = await rawGet(url, { Range: `bytes=${CLIP.length + 10}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['cache-control']).toBe('no-store');
    expect(beyond.headers['content-range']).toBe(`bytes */${CLIP.length}`);

    const etag = whole.headers.etag!;
    expect((await rawGet(url, { 'If-None-Match': etag })).status).toBe(304);
    expect((await rawGet(url, { 'If-Modified-Since': whole.headers['last-modified']! })).status).toBe(304);
    const cover = await rawGet(server.baseUrl + book.body.data.image_path);
    expect([cover.status, cover.headers['content-type']]).toEqual([200, 'image/webp']);
  });

  it('answers a missing key, a dotfile and a staged import with 404, never reaching the bucket for them', async () => {
    for (const path of ['/media/lines/nothing.mp3', '/media/.hidden', '/media/lines/..%2f..%2fimports%2fx'])
      expect((await rawGet(server.baseUrl + path)).status).toBe(404);
  });

  it('still needs a live signature for a clip of a locked chapter, and keeps it private', async () => {
    const res = await admin.get<{ data: { phrases: Array<{ audio: string }> } }>(
      `guest/book/${code}/chapter/2`,
    );
    const signed = res.body.data.phrases[0].audio;
    expect(signed).toMatch(/\?exp=\d+&sig=/);
    const ok = await rawGet(server.baseUrl + signed, { Range: 'bytes=0-99' });
    expect([ok.status, ok.headers['cache-control'], ok.body.length]).toEqual([206, 'private, no-store', 100]);
    const bare = await rawGet(server.baseUrl + signed.split('?')[0]);
    expect([bare.status, bare.headers['cache-control']]).toEqual([403, 'no-store']);
  });

  it('removes the object an hour after its phrase is replaced, and after it is deleted', async () => {
    const phrase = await addPhrase(chapterIds[0]);
    const replaced = await admin.post<{ data: Phrase }>(
      `admin/phrase/${phrase.id}?_method=put`,
      form({ phrase: 'Salut !', dictionary: 'salut — hi', line_audio: [fixture('clip.mp3'), 'd.mp3'] }),
    );
    expect(replaced.status).toBe(200);
    const now = replaced.body.data.line_audio;
    expect(await objectExists(keyOf(phrase.line_audio))).toBe(true);
    await purgeAfterGrace(server);
    expect(await objectExists(keyOf(phrase.line_audio))).toBe(false);
    expect(await objectExists(keyOf(now))).toBe(true);
    expect((await admin.delete(`admin/phrase/${phrase.id}`)).status).toBe(200);
    expect(await objectExists(keyOf(now))).toBe(true);
    // The boot sweep leaves a trashed file alone even when the file itself is hours old.
    const media = server.app.get(MediaModule);
    await server.app.get(MediaService).sweep(await media.referenced(), new Date(Date.now() + 2 * HOUR));
    expect(await objectExists(keyOf(now))).toBe(true);
    await purgeAfterGrace(server);
    expect(await objectExists(keyOf(now))).toBe(false);
  });

  it('sweeps an orphan at boot once it is an hour old, never a younger one', async () => {
    await s3.client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: 'media/lines/orphan.mp3', Body: 'nobody points here' }),
    );
    const media = server.app.get(MediaModule);
    const service = server.app.get(MediaService);
    // Just stored: another instance may be about to commit the row that points to it.
    await media.onApplicationBootstrap();
    expect(await objectExists('lines/orphan.mp3')).toBe(true);
    // An hour on, nobody did.
    await service.sweep(await media.referenced(), new Date(Date.now() + HOUR + 60_000));
    expect(await objectExists('lines/orphan.mp3')).toBe(false);
    const book = await admin.get<{ data: { sample_audio: string } }>(`admin/book/${code}`);
    expect(await objectExists(keyOf(book.body.data.sample_audio))).toBe(true);
  });

  it('sends an upload again, with a new stream of its file, when the first try loses its connection', async () => {
    // A proxy before s3rver that resets the first connection as the request arrives, as a bucket does that
    // closes a kept-alive connection just as it is reused.
    let resets = 1;
    const proxy = createServer((socket) => {
      socket.on('error', () => undefined);
      if (resets-- > 0) return void socket.once('data', () => socket.resetAndDestroy());
      const upstream = connect(s3.port, '127.0.0.1');
      upstream.on('error', () => socket.destroy());
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    const { port } = proxy.address() as AddressInfo;
    const client = createS3Client({
      endpoint: `http://127.0.0.1:${port}`,
      region: s3.env.S3_REGION,
      bucket: s3.bucket,
      accessKeyId: s3.env.S3_ACCESS_KEY_ID,
      secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: true,
    });
    const folder = tempStorage();
    mkdirSync(folder, { recursive: true });
    try {
      const file = join(folder, 'clip.mp3');
      writeFileSync(file, CLIP);
      await new S3MediaStore(client, s3.bucket, 'media/', folder).put('lines/sent-twice.mp3', file);
      expect(resets).toBeLessThan(0);
      expect((await object('lines/sent-twice.mp3')).equals(CLIP)).toBe(true);
    } finally {
      client.destroy();
      proxy.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('answers media requests with a clean JSON 503 while the bucket is down, and check() fails', async () => {
    const book = await admin.get<{ data: { sample_audio: string } }>(`admin/book/${code}`);
    const store = server.app.get<symbol, MediaStore>(MEDIA_STORE);
    await expect(store.check()).resolves.toBeUndefined();
    await s3.stop();
    try {
      const res = await rawGet(server.baseUrl + book.body.data.sample_audio);
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(res.body.toString())).toEqual({
        message: 'Media storage is unavailable right now. Please try again shortly.',
      });
      await expect(store.check()).rejects.toThrow(/HeadBucket failed/);
      // An upload that cannot be stored is ours: a 503 with the same message, no stack, no 500.
      const upload = await admin.post(
        'admin/phrase',
        form({
          chapter_id: chapterIds[0],
          phrase: 'X.',
          dictionary: 'salut — hi',
          line_audio: [fixture('clip.mp3'), 'x.mp3'],
        }),
      );
      expect([upload.status, upload.body]).toEqual([
        503,
        { message: 'Media storage is unavailable right now. Please try again shortly.' },
      ]);
    } finally {
      await s3.start();
    }
    expect((await rawGet(server.baseUrl + book.body.data.sample_audio)).status).toBe(200);
  });
});

describe('Media store configuration', () => {
  const base = { STORAGE_DIR: tempStorage() };
  const s3 = {
    MEDIA_STORE: 's3',
    S3_BUCKET: 'media-bucket',
    S3_ACCESS_KEY_ID: 'id',
    S3_SECRET_ACCESS_KEY: 'secret',
  };

  it('keeps media in STORAGE_DIR when nothing is set', () => {
    expect(loadConfig(base).mediaStore).toEqual({ kind: 'local' });
  });

  it('reads an S3 store with its defaults', () => {
    expect(loadConfig({ ...base, ...s3, S3_ENDPOINT: 'http://127.0.0.1:9000/' }).mediaStore).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      bucket: 'media-bucket',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: false,
    });
  });

  it.each([
    [{ MEDIA_STORE: 'ftp' }, 'MEDIA_STORE must be local or s3, got "ftp"'],
    [{ ...s3, S3_BUCKET: '' }, 'S3_BUCKET is required when MEDIA_STORE=s3'],
    [{ ...s3, S3_SECRET_ACCESS_KEY: ' ' }, 'S3_SECRET_ACCESS_KEY is required when MEDIA_STORE=s3'],
    [
      { ...s3, S3_ENDPOINT: 'localhost:9000' },
      'S3_ENDPOINT must start with http:// or https://, got "localhost:9000"',
    ],
    [{ ...s3, S3_ENDPOINT: 'not a url' }, 'S3_ENDPOINT must be an absolute http(s) URL, got "not a url"'],
    [{ ...s3, S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE must be true or false, got "yes"'],
    [{ ...s3, S3_BUCKET: 'Bad_Bucket' }, 'S3_BUCKET must be a valid bucket name, got "Bad_Bucket"'],
  ])('refuses %j with one clear line', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });

  it('refuses to boot on a bad MEDIA_STORE', async () => {
    await expect(startServer(tempStorage(), { MEDIA_STORE: 'disk' })).rejects.toThrow(
      'MEDIA_STORE must be local or s3, got "disk"',
    );
  });
});
