import { Injectable } from '@nestjs/common';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { CatalogueService } from './catalogue.service';
import { absolute, PUBLIC_PAGES } from './public-pages';
import { BooksRepository } from './repository/books.repository';

/** The sitemap protocol's limit of URLs per file. */
export const MAX_SITEMAP_URLS = 50_000;
/** Books read per query: the memory a sitemap takes, whatever the catalogue's size. */
const STEP = 1_000;
/** Each book gives at most two URLs: its page and its free chapter's reader page. */
const URLS_PER_BOOK = 2;

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const URLSET = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
const INDEX = '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';

/**
 * The sitemaps, written as a stream from bounded queries, outside the page cache (which would hold and
 * compress a whole body at once). Up to 50,000 URLs, `/sitemap.xml` is one `urlset`: the public pages,
 * every language page, every book page and every free chapter's reader page, each with `lastmod`.
 * Beyond, it is an index of `/sitemap-1.xml` (the pages and languages) and `/sitemap-2.xml`… (books in id
 * order, at most 50,000 URLs each). docs/catalogue.md says more.
 */
@Injectable()
export class Sitemaps {
  /** URLs per file; lowered by tests to reach the index without 25,000 books. */
  urlsPerFile = MAX_SITEMAP_URLS;

  constructor(
    private readonly books: BooksRepository,
    private readonly catalogue: CatalogueService,
  ) {}

  private get booksPerFile(): number {
    return Math.max(1, Math.floor(this.urlsPerFile / URLS_PER_BOOK));
  }

  /** The number of book files, or 0 when everything fits in one urlset. */
  private async layout() {
    const [summary, languages] = await Promise.all([this.books.summary(), this.catalogue.languages()]);
    const pages = languages.filter((language) => language.tag !== null);
    const urls = PUBLIC_PAGES.length + pages.length + summary.books * URLS_PER_BOOK;
    const bookFiles = urls <= this.urlsPerFile ? 0 : Math.ceil(summary.books / this.booksPerFile);
    return { summary, languages: pages, bookFiles };
  }

  /**
   * Writes sitemap `part` (null: /sitemap.xml) to `out`; answers false when there is no such part (a
   * 404), before writing anything.
   */
  async write(out: Writable, publicUrl: string, part: number | null): Promise<boolean> {
    try {
      return await this.writeTo(out, publicUrl, part);
    } catch (error) {
      if (error instanceof ClientGone) return true;
      throw error;
    }
  }

  private async writeTo(out: Writable, publicUrl: string, part: number | null): Promise<boolean> {
    const { summary, languages, bookFiles } = await this.layout();
    const url = (path: string, lastmod: Date | null) =>
      `<url><loc>${escape(absolute(publicUrl, path))}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</url>\n`;
    const pages = () =>
      PUBLIC_PAGES.map((path) => url(path, summary.lastChange)).join('') +
      languages.map((language) => url(`/learn/${language.key}`, language.lastChange)).join('');

    if (part === null && bookFiles > 0) {
      const lastmod = summary.lastChange ? `<lastmod>${summary.lastChange.toISOString()}</lastmod>` : '';
      const files = Array.from(
        { length: bookFiles + 1 },
        (_, i) => `<sitemap><loc>${escape(`${publicUrl}/sitemap-${i + 1}.xml`)}</loc>${lastmod}</sitemap>\n`,
      );
      out.end(`${XML_HEAD}${INDEX}${files.join('')}</sitemapindex>\n`);
      return true;
    }
    if (part !== null && (bookFiles === 0 || part < 1 || part > bookFiles + 1)) return false;

    await send(out, XML_HEAD + URLSET);
    if (part === null || part === 1) await send(out, pages());
    if (part !== 1) {
      const first = part === null ? 0 : (part - 2) * this.booksPerFile;
      const count = part === null ? Infinity : this.booksPerFile;
      let afterId = first === 0 ? 0 : await this.books.idBefore(first);
      for (let written = 0; written < count;) {
        const rows = await this.books.sitemapRows(afterId, Math.min(STEP, count - written));
        if (!rows.length) break;
        await send(
          out,
          rows
            .map(
              (book) =>
                url(`/book-detail/${book.code}`, book.updatedAt) +
                (book.freeChapterNo === null
                  ? ''
                  : url(`/read/${book.code}/${book.freeChapterNo}`, book.updatedAt)),
            )
            .join(''),
        );
        written += rows.length;
        afterId = rows.at(-1)!.id;
      }
    }
    out.end('</urlset>\n');
    return true;
  }
}

/** The client went away mid-sitemap: nothing more to write. */
class ClientGone extends Error {}

/**
 * Writes a chunk, waiting while the client reads slower than the database answers; a client that hangs
 * up meanwhile ends the writing (a 'drain' would never come).
 */
async function send(out: Writable, chunk: string): Promise<void> {
  if (out.destroyed || out.writableEnded) throw new ClientGone();
  if (out.write(chunk)) return;
  await Promise.race([once(out, 'drain'), once(out, 'close')]);
  if (out.destroyed) throw new ClientGone();
}
