import { encodingFor, ENTRY_OVERHEAD_BYTES, isFresh, PageCache, type CapturedResponse } from './page-cache';

const html = (text: string): CapturedResponse => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: Buffer.from(`<p>${text}</p>`),
});

/** A render that finishes when the test says so. */
function deferred() {
  let finish!: (value: CapturedResponse | null) => void;
  const promise = new Promise<CapturedResponse | null>((resolve) => (finish = resolve));
  return { render: () => promise, finish };
}

describe(PageCache.name, () => {
  it('renders once for concurrent requests and keeps a 200', async () => {
    const cache = new PageCache();
    const slow = deferred();
    const leader = cache.render('/a', slow.render);
    const follower = cache.render('/a', () => Promise.reject(new Error('must not render twice')));
    slow.finish(html('one'));
    expect((await leader).page?.identity.toString()).toBe('<p>one</p>');
    expect((await follower).page?.identity.toString()).toBe('<p>one</p>');
    expect(cache.get('/a')?.etag).toMatch(/^"[\w-]+"$/);
  });

  it('keeps nothing but a 200', async () => {
    const cache = new PageCache();
    const { page, captured } = await cache.render('/missing', () =>
      Promise.resolve({ ...html('gone'), status: 404 }),
    );
    expect(page).toBeNull();
    expect(captured?.status).toBe(404);
    expect(cache.get('/missing')).toBeUndefined();
  });

  it('neither keeps nor shares a render that started before a change', async () => {
    const cache = new PageCache();
    const before = deferred();
    const stale = cache.render('/list', before.render);
    cache.clear();
    const fresh = cache.render('/list', () => Promise.resolve(html('after')));
    before.finish(html('before'));
    expect((await fresh).page?.identity.toString()).toBe('<p>after</p>');
    expect((await stale).page?.identity.toString()).toBe('<p>before</p>');
    expect(cache.get('/list')?.identity.toString()).toBe('<p>after</p>');
  });

  it('stays within its byte budget, letting the least recently used entries go first', async () => {
    const page = (n: number): CapturedResponse => ({
      ...html(''),
      // Random bytes do not compress: each entry costs about three times its body.
      body: Buffer.from(Array.from({ length: 10_000 }, () => Math.floor(Math.random() * 256))),
      headers: { 'content-type': `text/plain; n=${n}` },
    });
    const cache = new PageCache(100_000);
    for (let n = 0; n < 3; n++) await cache.render(`/p${n}`, () => Promise.resolve(page(n)));
    cache.get('/p0');
    for (let n = 3; n < 20; n++) await cache.render(`/p${n}`, () => Promise.resolve(page(n)));
    expect(cache.sizeInBytes).toBeLessThanOrEqual(100_000);
    expect(cache.size).toBe(3);
    expect(cache.get('/p19')).toBeDefined();
    expect(cache.get('/p1')).toBeUndefined();
  });

  it('serves but does not keep an answer larger than the whole budget', async () => {
    const cache = new PageCache(1_000);
    const { page } = await cache.render('/big', () => Promise.resolve(html('x'.repeat(5_000))));
    expect(page?.identity.length).toBeGreaterThan(5_000);
    expect(cache.size).toBe(0);
    expect(cache.sizeInBytes).toBe(0);
  });

  it('holds its three bodies in one allocation of their own, exactly their size', async () => {
    const cache = new PageCache();
    const { page } = await cache.render('/small', () => Promise.resolve(html('a small answer')));
    const bodies = [page!.identity, page!.gzip, page!.br];
    expect(bodies.map((body) => body.buffer)).toEqual([
      page!.bodies.buffer,
      page!.bodies.buffer,
      page!.bodies.buffer,
    ]);
    expect(page!.bodies.buffer.byteLength).toBe(bodies.reduce((sum, body) => sum + body.length, 0));
    expect(page!.identity.toString()).toBe('<p>a small answer</p>');
  });

  it('counts what an entry really holds: its bodies, its key and the measured cost of the rest', async () => {
    const cache = new PageCache();
    const key = '/api/v1/guest/book-detail/le-petit-voyage';
    const { page } = await cache.render(key, () => Promise.resolve(html('a small answer')));
    const bodies = page!.identity.length + page!.gzip.length + page!.br.length;
    expect(cache.sizeInBytes).toBe(bodies + key.length + ENTRY_OVERHEAD_BYTES);
    // Measured at about 760 bytes in the running server (docs/catalogue.md, "The page cache's memory").
    expect(ENTRY_OVERHEAD_BYTES).toBeGreaterThanOrEqual(760);
  });

  it('holds fewer small answers in the same budget, as many as their real cost allows', async () => {
    const cache = new PageCache(100_000);
    for (let n = 0; n < 500; n++) await cache.render(`/p${n}`, () => Promise.resolve(html(`answer ${n}`)));
    expect(cache.sizeInBytes).toBeLessThanOrEqual(100_000);
    // Each entry costs its ~80 bytes of bodies and the overhead: about 90 fit, not 300 as counted before.
    expect(cache.size).toBeLessThan(100_000 / ENTRY_OVERHEAD_BYTES);
    expect(cache.size).toBeGreaterThan(100_000 / (ENTRY_OVERHEAD_BYTES + 200));
  });

  it('does not keep an answer marked no-store, such as an empty page past the end', async () => {
    const cache = new PageCache();
    const empty = {
      ...html(''),
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    };
    const { page, captured } = await cache.render('/api/v1/guest/books?page=999', () =>
      Promise.resolve(empty),
    );
    expect(page).toBeNull();
    expect(captured?.status).toBe(200);
    expect([cache.size, cache.sizeInBytes]).toEqual([0, 0]);
  });
});

describe(isFresh.name, () => {
  const etag = '"abc"';
  it.each([
    [{}, false],
    [{ 'if-none-match': etag }, true],
    [{ 'if-none-match': `W/${etag}` }, true],
    [{ 'if-none-match': `"x", ${etag} ,"y"` }, true],
    [{ 'if-none-match': '*' }, true],
    [{ 'if-none-match': '"x"' }, false],
    [{ 'if-none-match': etag, 'cache-control': 'no-cache' }, false],
    [{ 'if-none-match': etag, 'cache-control': 'max-age=0' }, true],
    [{ 'if-none-match': etag, 'if-modified-since': 'Wed, 21 Oct 2015 07:28:00 GMT' }, true],
    // Cached pages carry no Last-Modified, so a date alone never proves the copy current.
    [{ 'if-modified-since': 'Wed, 21 Oct 2015 07:28:00 GMT' }, false],
  ])('says %j is %s, as Express does', (headers, fresh) => {
    expect(isFresh(headers, etag)).toBe(fresh);
  });
});

describe(encodingFor.name, () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['br, gzip', 'br'],
    ['gzip, deflate, br', 'gzip'],
    ['gzip;q=0.5, br;q=0.8', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['deflate', 'identity'],
    ['*', 'br'],
    ['identity;q=0', 'identity'],
  ])('picks for %j: %s', (accept, encoding) => {
    expect(encodingFor(accept)).toBe(encoding);
  });
});
