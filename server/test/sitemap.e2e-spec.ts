import { PassThrough } from 'node:stream';
import { Sitemaps } from '../content/catalogue/sitemap';
import { newAdmin, type ApiClient } from './api-client';
import { bookForm } from './fixtures';
import { startServer, type TestServer } from './harness';

/** The sitemaps as a crawler reads them, written by the catalogue's streaming writer. */
describe('Sitemaps', () => {
  let server: TestServer;
  let admin: ApiClient;
  let sitemaps: Sitemaps;
  const codes: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    sitemaps = server.app.get(Sitemaps);
    for (const [title, language] of [
      ['Uno', 'es'],
      ['Deux', 'fr'],
      ['Drei', 'de'],
    ]) {
      const book = await admin.post<{ data: { id: number; book_code: string } }>(
        'admin/book',
        bookForm({ title, language }),
      );
      codes.push(book.body.data.book_code);
      // Chapter 3 only: the free chapter is the first there is, whatever its number.
      if (title !== 'Drei')
        await admin.post('admin/chapter', { title: 'Uno', chapter_no: 3, book_id: book.body.data.id });
    }
  });
  afterAll(() => server.close());

  const read = async (part: number | null) => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const written = await sitemaps.write(out, 'https://books.example.org', part);
    return { written, xml: Buffer.concat(chunks).toString('utf8') };
  };
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

  it('lists pages, languages, books and free chapters in one urlset, each with lastmod', async () => {
    sitemaps.urlsPerFile = 50_000;
    const { xml } = await read(null);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
    const urls = locs(xml);
    for (const path of ['/', '/books', '/learn/es', '/learn/fr', '/learn/de'])
      expect(urls).toContain(`https://books.example.org${path}`);
    for (const code of codes) expect(urls).toContain(`https://books.example.org/book-detail/${code}`);
    expect(urls).toContain(`https://books.example.org/read/${codes[0]}/3`);
    // A book without chapters has no reader page to list.
    expect(urls.filter((url) => url.includes(`/read/${codes[2]}/`))).toEqual([]);
    expect(xml.match(/<url>/g)!.length).toBe(xml.match(/<lastmod>/g)!.length);
    expect(await read(1)).toEqual({ written: false, xml: '' });
  });

  it('stops writing when the client goes away while the sitemap waits for it', async () => {
    sitemaps.urlsPerFile = 50_000;
    // Nobody reads: the first chunk fills the buffer and the writer waits; then the client hangs up.
    const out = new PassThrough({ highWaterMark: 16 });
    const writing = sitemaps.write(out, 'https://books.example.org', null);
    setTimeout(() => out.destroy(), 50);
    await expect(writing).resolves.toBe(true);
  });

  it('becomes an index of numbered sitemaps past the limit, every book in exactly one of them', async () => {
    sitemaps.urlsPerFile = 4;
    const index = await read(null);
    expect(index.xml).toContain('<sitemapindex ');
    expect(locs(index.xml)).toEqual([1, 2, 3].map((n) => `https://books.example.org/sitemap-${n}.xml`));
    const parts = await Promise.all([1, 2, 3].map((n) => read(n)));
    expect(locs(parts[0].xml)).toContain('https://books.example.org/learn/es');
    const bookUrls = parts.slice(1).flatMap((part) => locs(part.xml));
    for (const part of parts.slice(1)) expect(locs(part.xml).length).toBeLessThanOrEqual(4);
    expect(bookUrls.filter((url) => url.includes('/book-detail/')).sort()).toEqual(
      codes.map((code) => `https://books.example.org/book-detail/${code}`).sort(),
    );
    expect((await read(4)).written).toBe(false);
  });
});
