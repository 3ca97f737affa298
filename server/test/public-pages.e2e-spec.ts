import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { absolute, PUBLIC_PAGES } from '../content/catalogue/public-pages';
import { assertBuilt, boot, stop, SEEDING_HOOK_MS } from './built-server';
import { bookForm, BOOK_FIELDS, form, wav, WAV_RATE } from './fixtures';
import { rawGet } from './harness';

const PUBLIC_URL = 'https://books.example.org';

/** Every `<link rel="canonical">` of a page, in order. */
const canonicals = (html: string) =>
  [...html.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((m) => m[1]);

/** An ISO 8601 duration ("PT1H4M25S") in seconds, read independently of the code that writes it. */
function seconds(duration: string): number {
  const parts = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(duration);
  if (!parts || duration === 'PT') throw new Error(`not an ISO 8601 duration of h, m, s: ${duration}`);
  return Number(parts[1] ?? 0) * 3600 + Number(parts[2] ?? 0) * 60 + Number(parts[3] ?? 0);
}

/** The built server with the demo catalogue: what visitors and crawlers get, after each admin change. */
describe('Public pages', () => {
  let child: ChildProcess;
  let url: string;
  let storage: string;
  let token: string;

  beforeAll(async () => {
    assertBuilt();
    storage = mkdtempSync(join(tmpdir(), 'lingonovel-pages-'));
    ({ child, url } = await boot({ STORAGE_DIR: storage, PUBLIC_URL }, ['--demo']));
    const credentials = JSON.parse(readFileSync(join(storage, 'demo-admin.json'), 'utf8')) as {
      email: string;
      password: string;
    };
    const login = await fetch(`${url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    token = ((await login.json()) as { token: string }).token;
  }, SEEDING_HOOK_MS);
  afterAll(async () => {
    await stop(child);
    rmSync(storage, { recursive: true, force: true });
  });

  const page = async (path: string) => {
    const res = await fetch(url + path);
    return { status: res.status, html: await res.text(), headers: res.headers };
  };
  const jsonLd = (html: string) =>
    JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]) as Record<
      string,
      unknown
    >;
  const admin = (method: string, path: string, body?: FormData) =>
    fetch(`${url}/api/v1/admin/${path}`, { method, body, headers: { Authorization: `Bearer ${token}` } });

  it('shows a new book, its edit and its deletion on the very next request', async () => {
    const created = await admin('POST', 'book', bookForm({ title: 'Het Verloren Station' }));
    expect(created.status).toBe(200);
    const code = ((await created.json()) as { data: { book_code: string } }).data.book_code;

    const guestList = async () =>
      (
        (await (await fetch(`${url}/api/v1/guest/list-book`)).json()) as {
          data: Array<{ book_code: string; title: string }>;
        }
      ).data;
    expect((await guestList()).map((b) => b.book_code)).toContain(code);
    let detail = await page(`/book-detail/${code}`);
    expect(detail.status).toBe(200);
    expect(detail.html).toMatch(/<h1[^>]*>Het Verloren Station<\/h1>/);
    expect((await page('/lingostory')).html).toContain(`href="/book-detail/${code}"`);

    const edit = new FormData();
    for (const [key, value] of Object.entries({ ...BOOK_FIELDS, title: 'Het Gevonden Station' }))
      edit.set(key, value);
    expect((await admin('POST', `book/${code}?_method=put`, edit)).status).toBe(200);
    detail = await page(`/book-detail/${code}`);
    expect(detail.html).toMatch(/<h1[^>]*>Het Gevonden Station<\/h1>/);
    expect((await page('/lingostory')).html).toContain('Het Gevonden Station');
    expect((await guestList()).find((b) => b.book_code === code)?.title).toBe('Het Gevonden Station');
    expect(
      ((await (await fetch(`${url}/api/v1/guest/book-detail/${code}`)).json()) as { data: { title: string } })
        .data.title,
    ).toBe('Het Gevonden Station');

    expect((await admin('DELETE', `book/${code}`)).status).toBe(200);
    const gone = await page(`/book-detail/${code}`);
    expect(gone.status).toBe(404);
    expect(gone.html).toContain('Page not found');
    expect((await page('/lingostory')).html).not.toContain(`href="/book-detail/${code}"`);
    expect((await guestList()).map((b) => b.book_code)).not.toContain(code);
    expect((await fetch(`${url}/api/v1/guest/book-detail/${code}`)).status).toBe(404);
  });

  it('serves the guest list from the cache with an ETag, compressed', async () => {
    const first = await rawGet(url + '/api/v1/guest/list-book', { 'Accept-Encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(first.headers['content-encoding']).toBe('br');
    const again = await rawGet(url + '/api/v1/guest/list-book?x=1', {
      'If-None-Match': first.headers.etag as string,
    });
    expect(again.status).toBe(304);
  });

  it('answers conditional requests with 304 and sends pages compressed', async () => {
    const first = await rawGet(url + '/lingostory');
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await rawGet(url + '/lingostory', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    const gzip = await rawGet(url + '/lingostory', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(first.body)).toBe(true);
    const br = await rawGet(url + '/lingostory', { 'Accept-Encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(first.body)).toBe(true);
    expect(br.headers.vary).toContain('Accept-Encoding');
  });

  it('keeps the whole page when the first request after a change is a HEAD', async () => {
    const created = await admin('POST', 'book', bookForm({ title: 'Kopf und Körper' }));
    const code = ((await created.json()) as { data: { book_code: string } }).data.book_code;
    for (const path of ['/lingostory', `/book-detail/${code}`, '/api/v1/guest/list-book']) {
      const head = await fetch(url + path, { method: 'HEAD' });
      expect([path, head.status]).toEqual([path, 200]);
      expect(await head.text()).toBe('');
      const get = await fetch(url + path);
      expect([path, (await get.text()).includes('Kopf und Körper')]).toEqual([path, true]);
    }
    await admin('DELETE', `book/${code}`);
  });

  it('ignores query strings: same page, same ETag', async () => {
    const plain = await rawGet(url + '/lingostory');
    const busted = await rawGet(url + `/lingostory?cache-buster=${Date.now()}`);
    expect(busted.status).toBe(200);
    expect(busted.headers.etag).toBe(plain.headers.etag);
  });

  it('answers methods a page does not support with 405 and Allow, never a 500', async () => {
    for (const method of ['TRACE', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      for (const path of [
        '/lingostory',
        '/book-detail/der-leuchtturmwarter',
        '/no-such-page',
        '/admin/books',
      ]) {
        const res = await new Promise<{ status: number; allow?: string }>((resolve, reject) => {
          const req = request(url + path, { method }, (answer) => {
            answer.resume();
            resolve({ status: answer.statusCode ?? 0, allow: answer.headers.allow });
          });
          req.on('error', reject);
          req.end(method === 'POST' ? 'a=1' : undefined);
        });
        expect([method, path, res.status, res.allow]).toEqual([method, path, 405, 'GET, HEAD']);
      }
    }
  });

  it('sends /admin, where the README points administrators, to the admin dashboard', async () => {
    const res = await fetch(`${url}/admin`, { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).toEqual([302, '/admin/dashboard']);
  });

  it('answers unknown pages and books with the 404 page', async () => {
    for (const path of ['/no-such-page', '/book-detail/no-such-book', '/media/covers/nothing-640.webp']) {
      const res = await page(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.html).toContain('Page not found');
    }
    // A missing file may appear a moment later (uploaded through another instance): nobody keeps its 404.
    for (const path of ['/media/covers/nothing-640.webp', '/media/lines/nothing.mp3'])
      expect([path, (await page(path)).headers.get('cache-control')]).toEqual([path, 'no-store']);
  });

  it('gives each book page its title, description, canonical URL, cards and JSON-LD', async () => {
    const { data } = (await (await fetch(`${url}/api/v1/guest/list-book`)).json()) as {
      data: Array<{
        book_code: string;
        title: string;
        author: string;
        narrated_by: string;
        language: string;
        cefr: string;
        image_path: string;
        duration_ms: number;
      }>;
    };
    const book = data[0];
    const { html } = await page(`/book-detail/${book.book_code}`);
    const canonical = `https://books.example.org/book-detail/${book.book_code}`;
    expect(html).toContain(`<title>${book.title} by ${book.author} · Lingonovel</title>`);
    expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);
    expect(canonicals(html)).toEqual([canonical]);
    expect(html).toContain(`<meta property="og:image" content="https://books.example.org${book.image_path}"`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');
    expect(html).toMatch(new RegExp(`<p class="sample" lang="${book.language}"`));

    const ld = jsonLd(html);
    expect(ld).toEqual(
      expect.objectContaining({
        '@context': 'https://schema.org',
        '@type': 'Audiobook',
        name: book.title,
        author: { '@type': 'Person', name: book.author },
        readBy: { '@type': 'Person', name: book.narrated_by },
        url: canonical,
        image: `https://books.example.org${book.image_path}`,
        educationalLevel: book.cefr,
        inLanguage: book.language,
      }),
    );
    // The demo's clips, to the second (docs/catalogue.md, "Pages and metadata").
    expect(seconds(ld.duration as string)).toBe(Math.round(book.duration_ms / 1000));
  });

  it("says in the JSON-LD a book's exact length from its clips and its CEFR level", async () => {
    const created = await admin(
      'POST',
      'book',
      bookForm({
        title: 'Der kurze Zug',
        language: 'de',
        cefr: 'B1',
        difficulty: 'Hard',
        hours: '3',
        minutes: '0',
      }),
    );
    expect(created.status).toBe(200);
    const { id, book_code: code } = ((await created.json()) as { data: { id: number; book_code: string } })
      .data;
    try {
      // Typed 3 hours, no clips yet: the typed length.
      expect(jsonLd((await page(`/book-detail/${code}`)).html)).toEqual(
        expect.objectContaining({ duration: 'PT3H', educationalLevel: 'B1' }),
      );

      const chapter = await fetch(`${url}/api/v1/admin/chapter`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'Eins', chapter_no: 1, book_id: id }),
      });
      const chapterId = ((await chapter.json()) as { data: { id: number } }).data.id;
      // Two clips of exactly 20 s and 15 s: 35 s in all, which whole minutes would call PT1M.
      for (const [text, secs] of [
        ['Der Zug fährt ab.', 20],
        ['Er hält.', 15],
      ] as const) {
        const res = await admin(
          'POST',
          'phrase',
          form({
            phrase: text,
            dictionary: 'Zug — train',
            chapter_id: chapterId,
            line_audio: [wav(secs * WAV_RATE), 'c.wav'],
          }),
        );
        expect(res.status).toBe(200);
      }
      const ld = jsonLd((await page(`/book-detail/${code}`)).html);
      expect(ld.duration).toBe('PT35S');
      expect(ld.educationalLevel).toBe('B1');
      // The difficulty (Easy, Medium, Hard) is the site's own scale, not an educational level.
      expect(JSON.stringify(ld)).not.toContain('Hard');
    } finally {
      await admin('DELETE', `book/${code}`);
    }
  });

  it('gives every page search engines may index one absolute canonical URL, without its query', async () => {
    const { data } = (await (await fetch(`${url}/api/v1/guest/list-book`)).json()) as {
      data: Array<{ book_code: string }>;
    };
    const code = data[0].book_code;
    const indexable = [
      ...PUBLIC_PAGES,
      '/login',
      '/signup',
      '/forgot',
      '/learn/es',
      `/book-detail/${code}`,
      `/read/${code}/1`,
    ];
    for (const path of indexable) {
      const { status, html } = await page(path);
      expect([path, status, canonicals(html)]).toEqual([path, 200, [absolute(PUBLIC_URL, path)]]);
    }
    // Tracking parameters are not part of the page (routes without a query rule ignore their query).
    for (const [path, canonical] of [
      ['/?utm_source=newsletter', `${PUBLIC_URL}/`],
      ['/about?fbclid=abc', `${PUBLIC_URL}/about`],
      ['/purchase?ref=mail&utm_medium=email', `${PUBLIC_URL}/purchase`],
    ]) {
      expect([path, canonicals((await page(path)).html)]).toEqual([path, [canonical]]);
    }
    // Member and admin pages stay out of search engines, and name no canonical URL; nor does a 404.
    for (const path of [
      '/dashboard',
      '/profile',
      '/words',
      '/review',
      '/downloads',
      '/admin/books',
      '/401',
    ]) {
      const { html } = await page(path);
      expect([path, html.includes('<meta name="robots" content="noindex">'), canonicals(html)]).toEqual([
        path,
        true,
        [],
      ]);
    }
    const missing = await page('/no-such-page');
    expect([missing.status, canonicals(missing.html)]).toEqual([404, []]);
  });

  it('lists every public page and book in the sitemap, and points robots.txt to it', async () => {
    const { data } = (await (await fetch(`${url}/api/v1/guest/list-book`)).json()) as {
      data: Array<{ book_code: string; updated_at: string }>;
    };
    const sitemap = await page('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toMatch(/^application\/xml/);
    for (const path of ['/', '/lingostory', '/lingonovel-story', '/ling']) {
      expect(sitemap.html).toContain(`<loc>https://books.example.org${path}</loc>`);
    }
    for (const book of data) {
      expect(sitemap.html).toContain(
        `<url><loc>https://books.example.org/book-detail/${book.book_code}</loc><lastmod>${book.updated_at}</lastmod></url>`,
      );
    }
    // Every demo book's first chapter is free: its reader page is for crawlers too.
    for (const book of data)
      expect(sitemap.html).toContain(`<loc>https://books.example.org/read/${book.book_code}/1</loc>`);
    expect(sitemap.html).toContain('<loc>https://books.example.org/learn/es</loc>');
    expect(sitemap.html.match(/<url>/g)!.length).toBe(sitemap.html.match(/<lastmod>/g)!.length);
    // Streamed, not kept: fresh on every request, revalidated by crawlers.
    expect(sitemap.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');

    const robots = await page('/robots.txt');
    expect(robots.html).toContain('Disallow: /admin');
    expect(robots.html).toContain('Disallow: /api/');
    expect(robots.html).toContain('Sitemap: https://books.example.org/sitemap.xml');
  });

  it('says plainly that payments are off instead of offering buttons that would fail', async () => {
    for (const path of ['/checkout', '/subs', '/check']) {
      const { status, html } = await page(path);
      expect([path, status]).toEqual([path, 200]);
      expect(html).toContain('Payments are not configured on this server.');
      expect(html).not.toMatch(/<button[^>]*type="submit"/);
    }
    expect((await page('/checkout?success=true')).html).toContain(
      'Order placed! You will receive an email confirmation.',
    );
    expect((await page('/checkout?canceled=1')).html).toContain(
      "Order canceled -- continue to shop around and checkout when you're ready.",
    );
  });

  it('renders the covers into the HTML with sizes, dimensions and alt text', async () => {
    const { html } = await page('/lingostory');
    const images = html.match(/<img [^>]*>/g) ?? [];
    expect(images.length).toBeGreaterThanOrEqual(6);
    for (const img of images) {
      expect(img).toMatch(/srcset="[^"]*-320\.webp 320w, [^"]*-640\.webp 640w, [^"]*-960\.webp 960w"/);
      expect(img).toMatch(/width="640"/);
      expect(img).toMatch(/height="960"/);
      expect(img).toMatch(/alt="Cover of [^"]+"/);
    }
    expect(images.slice(3).every((img) => img.includes('loading="lazy"'))).toBe(true);
  });
});
