import { join } from 'node:path';
import { ApiClient, newAdmin } from './api-client';
import { makeBook, phraseIdsOf } from './books';
import { decodedUs, lrcUs, vttUs } from './download-files';
import { startServer, type TestServer } from './harness';

/** The M4B over HTTP as players, browsers and download managers use it: ranges, ETag, If-Range, waits. */

type Headers = Record<string, string>;

describe('Downloads over HTTP: ranges, a strong ETag per edition and version, and pages for browsers', () => {
  let server: TestServer;
  let admin: ApiClient;
  let token: Headers;
  let code: string;
  let chapterIds: number[];
  let clipUs: number;

  async function get(path: string, headers: Headers = {}, method = 'GET') {
    const res = await fetch(`${server.baseUrl}/api/v1/${path}`, { method, headers });
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    return {
      status: res.status,
      headers: res.headers,
      body,
      text: body.toString(),
      json: () => JSON.parse(body.toString()) as unknown,
    };
  }

  /** The M4B once made, polled as the page does (202 while it is made); its ETag and bytes. */
  async function ready(headers: Headers = {}, bookCode = code) {
    const started = Date.now();
    for (;;) {
      const res = await get(`downloads/${bookCode}/audiobook`, headers);
      if (res.status === 200) return { etag: res.headers.get('etag')!, body: res.body };
      expect([res.status, JSON.parse(res.text)]).toEqual([202, { message: expect.any(String) }]);
      if (Date.now() - started > 90_000) throw new Error('the audiobook was not made within 90 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  beforeAll(async () => {
    server = await startServer();
    const made = await newAdmin(server);
    admin = made.client;
    const login = await new ApiClient(server).post<{ token: string }>('user/login', {
      email: made.email,
      password: made.password,
    });
    token = { Authorization: `Bearer ${login.body.token}` };
    ({ code, chapterIds } = await makeBook(admin));
    clipUs = await decodedUs(join(__dirname, 'fixtures', 'clip.mp3'));
  });
  afterAll(() => server.close());

  it('answers byte ranges: one (suffix too) as 206, several merged or whole, beyond the file 416, HEAD alike', async () => {
    const { body: file } = await ready();
    const bytes = file.length;
    const path = `downloads/${code}/audiobook`;
    const part = await get(path, { Range: 'bytes=0-99' });
    expect([part.status, part.body.length, part.headers.get('content-length')]).toEqual([206, 100, '100']);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${bytes}`);
    expect(part.body.equals(file.subarray(0, 100))).toBe(true);
    const tail = await get(path, { Range: `bytes=${bytes - 10}-` });
    expect([tail.status, tail.body.length]).toEqual([206, 10]);
    const suffix = await get(path, { Range: 'bytes=-500' });
    expect([suffix.status, suffix.headers.get('content-range')]).toEqual([
      206,
      `bytes ${bytes - 500}-${bytes - 1}/${bytes}`,
    ]);
    expect(suffix.body.equals(file.subarray(bytes - 500))).toBe(true);
    // A suffix longer than the file is the whole file (RFC 9110 §14.1.2), not a 416; a suffix of 0 is.
    const longer = await get(path, { Range: 'bytes=-999999999' });
    expect([longer.status, longer.headers.get('content-range'), longer.body.equals(file)]).toEqual([
      206,
      `bytes 0-${bytes - 1}/${bytes}`,
      true,
    ]);
    const none = await get(path, { Range: 'bytes=-0' });
    expect([none.status, none.headers.get('content-range')]).toEqual([416, `bytes */${bytes}`]);
    // Ranges that overlap or touch are one range; ranges still apart, the whole file.
    const merged = await get(path, { Range: 'bytes=0-9,5-19,20-29' });
    expect([merged.status, merged.headers.get('content-range'), merged.body.length]).toEqual([
      206,
      `bytes 0-29/${bytes}`,
      30,
    ]);
    const several = await get(path, { Range: 'bytes=0-9,100-109' });
    expect([several.status, several.body.length, several.headers.get('content-range')]).toEqual([
      200,
      bytes,
      null,
    ]);
    const beyond = await get(path, { Range: `bytes=${bytes}-` });
    expect([beyond.status, beyond.headers.get('content-range'), JSON.parse(beyond.text)]).toEqual([
      416,
      `bytes */${bytes}`,
      { message: `This range is not within the file (${bytes} bytes).` },
    ]);
    const head = await get(path, {}, 'HEAD');
    expect([head.status, head.headers.get('content-length'), head.body.length]).toEqual([
      200,
      String(bytes),
      0,
    ]);
    const headPart = await get(path, { Range: 'bytes=10-19' }, 'HEAD');
    expect([
      headPart.status,
      headPart.headers.get('content-length'),
      headPart.headers.get('content-range'),
      headPart.headers.get('etag'),
    ]).toEqual([206, '10', `bytes 10-19/${bytes}`, head.headers.get('etag')]);
  });

  it('answers the EPUB whole (200) whatever Range asks: it is made as it is sent, and says no ranges', async () => {
    const plain = await get(`downloads/${code}/epub`, token);
    for (const range of ['bytes=-999999999', 'bytes=0-99', `bytes=${plain.body.length + 10}-`]) {
      const res = await get(`downloads/${code}/epub`, { ...token, Range: range });
      expect([range, res.status, res.headers.get('content-range'), res.headers.get('accept-ranges')]).toEqual(
        [range, 200, null, null],
      );
      expect(res.body.length).toBe(plain.body.length);
    }
  });

  it('tags each edition and version with a strong ETag: a stale If-Range gets the whole new file', async () => {
    const sample = await ready();
    const full = await ready(token);
    expect(sample.etag).toMatch(/^"sample-[0-9a-f]{64}"$/);
    expect(full.etag).toMatch(/^"full-[0-9a-f]{64}"$/);
    expect(full.etag.slice(6)).not.toBe(sample.etag.slice(8));
    const path = `downloads/${code}/audiobook`;

    const resumed = await get(path, { ...token, Range: 'bytes=100-', 'If-Range': full.etag });
    expect([resumed.status, resumed.body.equals(full.body.subarray(100))]).toEqual([206, true]);
    // A download of the sample resumed once the plan gave the whole book: the whole book, from the start.
    const otherEdition = await get(path, { ...token, Range: 'bytes=100-', 'If-Range': sample.etag });
    expect([otherEdition.status, otherEdition.body.equals(full.body)]).toEqual([200, true]);
    const dated = await get(path, { ...token, Range: 'bytes=100-', 'If-Range': new Date().toUTCString() });
    expect(dated.status).toBe(200);
    const cached = await get(path, { ...token, 'If-None-Match': full.etag });
    expect([cached.status, cached.body.length]).toEqual([304, 0]);

    // An edit of chapter 3 makes a new full M4B: the old tag no longer resumes anything.
    const ids = await phraseIdsOf(admin, chapterIds);
    expect((await admin.delete(`admin/phrase/${ids[2][1]}`)).status).toBe(200);
    const rebuilt = await ready(token);
    expect(rebuilt.etag).toMatch(/^"full-[0-9a-f]{64}"$/);
    expect(rebuilt.etag).not.toBe(full.etag);
    expect(rebuilt.body.equals(full.body)).toBe(false);
    const stale = await get(path, { ...token, Range: 'bytes=100-', 'If-Range': full.etag });
    expect([stale.status, stale.headers.get('etag'), stale.body.equals(rebuilt.body)]).toEqual([
      200,
      rebuilt.etag,
      true,
    ]);
    // The sample (chapter 1) did not change, nor did its tag.
    expect((await ready()).etag).toBe(sample.etag);
  });

  it('shows a browser a page while the audiobook is made, and a script 202 with a message', async () => {
    const fresh = (await makeBook(admin)).code;
    const path = `downloads/${fresh}/audiobook`;
    const page = await get(path, { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect([page.status, page.headers.get('content-type')]).toEqual([503, 'text/html; charset=utf-8']);
    const wait = Number(page.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(page.text).toContain(`Your audiobook is being made; try again in ${wait} s.`);
    expect(page.text).toContain(`<a href="/book-detail/${fresh}">`);
    expect(page.text).not.toMatch(/<script/i);
    expect(page.headers.get('content-disposition')).toBeNull();

    // The full edition, not asked for yet: the page's readiness check.
    const check = await get(path, { ...token, Accept: '*/*', Range: 'bytes=0-0' });
    expect([check.status, JSON.parse(check.text), Number(check.headers.get('retry-after')) > 0]).toEqual([
      202,
      { message: expect.stringContaining('being made') },
      true,
    ]);
    // A signed link followed (a download button) on a book not made yet: the page, whatever Accept says.
    const other = (await makeBook(admin)).code;
    const link = await admin.post<{ data: { url: string } }>(`downloads/${other}/link`, {
      format: 'audiobook',
    });
    const followed = await fetch(`${server.baseUrl}${link.body.data.url}`);
    expect([followed.status, followed.headers.get('content-type')]).toEqual([
      503,
      'text/html; charset=utf-8',
    ]);
    expect(await followed.text()).toContain(`<a href="/book-detail/${other}">`);
  });

  it('answers a browser’s failed download with a small page, and a script with JSON', async () => {
    const html = { Accept: 'text/html,*/*;q=0.8' };
    for (const [path, status, message] of [
      ['downloads/nope/epub', 404, 'Book not found.'],
      [`downloads/${code}/chapter/9/subtitles.vtt`, 404, 'Chapter not found.'],
      [`downloads/${code}/chapter/2/subtitles.vtt`, 401, 'Sign in to read this chapter.'],
      [`downloads/${code}/epub?u=1&exp=1&sig=x`, 403, 'This download link has expired or is not valid.'],
    ] as const) {
      const page = await get(path, html);
      expect([path, page.status, page.headers.get('content-type')]).toEqual([
        path,
        status,
        'text/html; charset=utf-8',
      ]);
      expect(page.text).toContain(message);
      expect(page.text).not.toMatch(/<script/i);
      const json = await get(path);
      expect([json.status, (JSON.parse(json.text) as { message: string }).message]).toEqual([
        status,
        expect.stringContaining(message),
      ]);
    }
  });

  it('writes one cue per phrase, back to back at the running sums of the decoded clips', async () => {
    const vtt = await get(`downloads/${code}/chapter/1/subtitles.vtt`);
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(vtt.headers.get('content-disposition')).toBe(`attachment; filename="${code}-chapter-1.vtt"`);
    const text = vtt.body.toString();
    expect(text.startsWith('WEBVTT')).toBe(true);
    const cues = [...text.matchAll(/(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n(.+)/g)];
    expect(cues.map((cue) => cue[3])).toEqual(['Bonjour. (1)', 'Au revoir. (1)']);
    cues.forEach(([, start, end], i) => {
      expect(Math.abs(vttUs(start) - i * clipUs)).toBeLessThanOrEqual(5_000);
      expect(Math.abs(vttUs(end) - (i + 1) * clipUs)).toBeLessThanOrEqual(5_000);
    });

    const lrc = await get(`downloads/${code}/chapter/1/subtitles.lrc`);
    expect(lrc.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(lrc.headers.get('content-disposition')).toBe(`attachment; filename="${code}-chapter-1.lrc"`);
    const lines = [...lrc.body.toString().matchAll(/^\[(\d\d:\d\d\.\d\d)\](.*)$/gm)].filter(([, , t]) =>
      t.trim(),
    );
    expect(lines.map((line) => line[2].trim())).toEqual(['Bonjour. (1)', 'Au revoir. (1)']);
    lines.forEach(([, start], i) => expect(Math.abs(lrcUs(start) - i * clipUs)).toBeLessThanOrEqual(10_000));
  });

  it('answers 404 with a message for an unknown book or chapter, privately', async () => {
    for (const path of [
      'downloads/nope/epub',
      'downloads/nope/audiobook',
      'downloads/nope/chapter/1/subtitles.vtt',
    ])
      expect([(await get(path)).status, (await get(path)).json()]).toEqual([
        404,
        { message: 'Book not found.' },
      ]);
    const chapter = await get(`downloads/${code}/chapter/9/subtitles.lrc`);
    expect([chapter.status, chapter.json()]).toEqual([404, { message: 'Chapter not found.' }]);
  });

  it('answers a token that is no longer valid with 401, not with the sample', async () => {
    for (const path of [`downloads/${code}/epub`, `downloads/${code}/chapter/1/subtitles.vtt`]) {
      const res = await get(path, { Authorization: 'Bearer not.a.token' });
      expect([path, res.status, res.json()]).toEqual([
        path,
        401,
        { message: 'Your session has expired or is not valid. Please sign in.' },
      ]);
    }
  });
});
