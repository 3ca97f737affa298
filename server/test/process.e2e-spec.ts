import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../platform/paths';
import { assertBuilt, boot, run, stop } from './built-server';

describe('The built server process', () => {
  let storage: string;

  beforeAll(assertBuilt);
  beforeEach(() => {
    storage = mkdtempSync(join(tmpdir(), 'lingonovel-proc-'));
  });
  afterEach(() => rmSync(storage, { recursive: true, force: true }));

  it('refuses to boot on a bad setting, with one clear line', () => {
    // 78 (EX_CONFIG): a service manager does not restart a start that only a person can fix.
    const result = run({ STORAGE_DIR: storage, PORT: 'abc' });
    expect(result.status).toBe(78);
    expect(result.stderr.trim()).toBe(
      'Lingonovel cannot start: PORT must be a whole number from 0 to 65535, got "abc"',
    );

    const short = run({ STORAGE_DIR: storage, JWT_SECRET: 'short' });
    expect(short.status).toBe(78);
    expect(short.stderr.trim()).toBe(
      'Lingonovel cannot start: JWT_SECRET must be at least 32 characters long',
    );
  });

  it('refuses a second process on the same STORAGE_DIR with SQLite, and frees it when the first stops', async () => {
    const first = await boot({ STORAGE_DIR: storage });
    try {
      const second = run({ STORAGE_DIR: storage });
      expect(second.status).toBe(1);
      expect(second.stderr.trim()).toBe(
        `Lingonovel cannot start: another Lingonovel process already serves STORAGE_DIR ${storage}. With SQLite, ` +
          'one process serves one STORAGE_DIR; to run several instances use PostgreSQL (see docs/scaling.md).',
      );
      expect((await fetch(first.url + '/api/v1/health')).status).toBe(200);
    } finally {
      await stop(first.child);
    }
    const again = await boot({ STORAGE_DIR: storage });
    await stop(again.child);
  });

  it('keeps the database private: a storage folder it makes is 0700, the database and its -wal and -shm 0600', async () => {
    const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);
    const made = join(storage, 'new', 'storage');
    const first = await boot({ STORAGE_DIR: made });
    try {
      expect(modeOf(made)).toBe('700');
      for (const file of ['lingonovel.sqlite', 'lingonovel.sqlite-wal', 'lingonovel.sqlite-shm'])
        expect([file, modeOf(join(made, file))]).toEqual([file, '600']);
    } finally {
      await stop(first.child);
    }

    // A folder the operator made keeps their mode; the database made in it is still private.
    chmodSync(storage, 0o750);
    const second = await boot({ STORAGE_DIR: storage });
    try {
      expect(modeOf(storage)).toBe('750');
      expect(modeOf(join(storage, 'lingonovel.sqlite'))).toBe('600');
    } finally {
      await stop(second.child);
    }
  });

  it('serves pages, API and the HTML 404 page from one process, without demo content in serve mode', async () => {
    const { child, url } = await boot({ STORAGE_DIR: storage });
    try {
      const home = await fetch(url + '/');
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(html).toContain('href="/lingostory"');

      const missing = await fetch(url + '/no-such-page');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toMatch(/text\/html/);
      expect(await missing.text()).toContain('Page not found');

      const missingAsset = await fetch(url + '/_astro/no-such-file.js');
      expect(missingAsset.status).toBe(404);
      expect(missingAsset.headers.get('content-type')).toMatch(/text\/html/);

      const unknownBook = await fetch(url + '/book-detail/no-such-book');
      expect(unknownBook.status).toBe(404);
      expect(await unknownBook.text()).toContain('Page not found');

      const books = await fetch(url + '/api/v1/guest/list-book');
      expect(await books.json()).toEqual({ data: [] });
    } finally {
      await stop(child);
    }
  });

  it('names its version, database and media store at boot, and says when it stops', async () => {
    const { child, output } = await boot({ STORAGE_DIR: storage });
    const version = (
      JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
    ).version;
    expect(output()).toContain(
      `Lingonovel ${version} on Node ${process.versions.node}: database SQLite (${join(storage, 'lingonovel.sqlite')}), media in a folder (${join(storage, 'media')})`,
    );
    await stop(child);
    expect(output()).toMatch(/Stopped on SIGTERM/);
  });

  it('prints the demo administrator and renders the demo covers into /lingostory', async () => {
    const { child, url, output } = await boot({ STORAGE_DIR: storage }, ['--demo']);
    try {
      expect(output()).toMatch(/Demo administrator: admin@demo\.lingonovel \/ \S{12,}/);
      const html = await (await fetch(url + '/lingostory')).text();
      const { data } = (await (await fetch(url + '/api/v1/guest/list-book')).json()) as {
        data: Array<{ book_code: string; image_path: string }>;
      };
      expect(data.length).toBeGreaterThanOrEqual(6);
      for (const book of data) {
        expect(html).toContain(`href="/book-detail/${book.book_code}"`);
        expect(html).toContain(`src="${book.image_path}"`);
      }
      const asset = /\/_astro\/[^"']+\.(?:js|css)/.exec(html);
      if (asset) {
        const res = await fetch(url + asset[0]);
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      }
    } finally {
      await stop(child);
    }
  });
});
