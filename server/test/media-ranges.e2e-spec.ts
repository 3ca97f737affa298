import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient, newAdmin } from './api-client';
import { makeBook } from './books';
import { rawGet, startServer, type TestServer } from './harness';

const CLIP = readFileSync(join(__dirname, 'fixtures', 'clip.mp3'));
const size = CLIP.length;
type Chapter = { data: { phrases: Array<{ audio: string }> } };

/**
 * Byte ranges under /media as RFC 9110 §14 reads them (docs/api.md "Byte ranges"), on whichever store the
 * run uses (a folder, or S3 with TEST_MEDIA_STORE=s3), through each of the gate's paths: a sample (public,
 * immutable), a free chapter's clip and a locked chapter's signed clip.
 */
describe('Byte ranges under /media', () => {
  let server: TestServer;
  const urls: Array<[string, string]> = [];

  beforeAll(async () => {
    server = await startServer();
    const admin = (await newAdmin(server)).client;
    const { code } = await makeBook(admin);
    const book = await admin.get<{ data: { sample_audio: string } }>(`admin/book/${code}`);
    const chapter = async (n: number, client: ApiClient) =>
      (await client.get<Chapter>(`guest/book/${code}/chapter/${n}`)).body.data.phrases[0].audio;
    urls.push(
      ['a sample', book.body.data.sample_audio],
      ["a free chapter's clip", await chapter(1, new ApiClient(server))],
      ["a locked chapter's signed clip", await chapter(2, admin)],
    );
    expect(urls[2][1]).toMatch(/\?exp=\d+&sig=/);
  });
  afterAll(() => server.close());

  const get = async (url: string, range: string) => {
    const res = await rawGet(server.baseUrl + url, { Range: range });
    return {
      status: res.status,
      range: res.headers['content-range'] ?? null,
      length: res.headers['content-length'],
      whole: res.body.equals(CLIP),
    };
  };

  it('answers a suffix longer than the file with the whole file as a 206', async () => {
    for (const [what, url] of urls)
      expect([what, await get(url, 'bytes=-999999999')]).toEqual([
        what,
        { status: 206, range: `bytes 0-${size - 1}/${size}`, length: String(size), whole: true },
      ]);
  });

  it('answers a HEAD with a suffix longer than the file as the 206 a GET gets, without a body', async () => {
    for (const [what, url] of urls) {
      const res = await fetch(server.baseUrl + url, {
        method: 'HEAD',
        headers: { Range: 'bytes=-999999999' },
      });
      expect([
        what,
        res.status,
        res.headers.get('content-range'),
        res.headers.get('content-length'),
        (await res.arrayBuffer()).byteLength,
      ]).toEqual([what, 206, `bytes 0-${size - 1}/${size}`, String(size), 0]);
    }
  });

  it('answers a suffix of the exact size whole, and a suffix of 0 with a 416', async () => {
    for (const [what, url] of urls) {
      expect([what, (await get(url, `bytes=-${size}`)).range]).toEqual([what, `bytes 0-${size - 1}/${size}`]);
      const none = await get(url, 'bytes=-0');
      expect([what, none.status, none.range]).toEqual([what, 416, `bytes */${size}`]);
    }
  });

  it('merges ranges that overlap or touch into one 206, and answers ranges still apart whole (200)', async () => {
    for (const [what, url] of urls) {
      const merged = await get(url, 'bytes=0-9,5-19,20-29');
      expect([what, merged.status, merged.range, merged.length]).toEqual([
        what,
        206,
        `bytes 0-29/${size}`,
        '30',
      ]);
      const apart = await get(url, 'bytes=0-9,100-109');
      expect([what, apart]).toEqual([what, { status: 200, range: null, length: String(size), whole: true }]);
    }
  });
});
