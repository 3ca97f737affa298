import type { Book } from '../../content/catalogue/entities/book.entity';
import { languageName } from '../../content/catalogue/languages';
import type { OpdsCoverWidth } from './opds-covers';
import { EPUB_TYPE, REL, type BookEntry, type FeedLink } from './feed-writer';

/**
 * The absolute URLs the feeds hold, from PUBLIC_URL: a reading app follows them as they are, whatever
 * host it was given. Paths match server/publishing/opds/opds.controller.ts and the download route
 * (docs/formats.md, "OPDS 1.2").
 */
export class OpdsUrls {
  readonly root: string;

  constructor(readonly publicUrl: string) {
    this.root = `${publicUrl}/api/v1/opds`;
  }

  /** A feed under the root: `feed('books', { page: 2 })` → …/api/v1/opds/books?page=2. */
  feed(path: string, query: Record<string, string | number | null> = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== null) params.set(name, String(value));
    const search = params.toString();
    return `${this.root}${path ? `/${path}` : ''}${search ? `?${search}` : ''}`;
  }

  get openSearch(): string {
    return `${this.root}/opensearch.xml`;
  }

  /** The OpenSearch template: `{searchTerms}` stays as written, for the reading app to fill in. */
  get searchTemplate(): string {
    return `${this.root}/search?q={searchTerms}`;
  }

  bookPage(code: string): string {
    return `${this.publicUrl}/book-detail/${encodeURIComponent(code)}`;
  }

  epub(code: string): string {
    return `${this.publicUrl}/api/v1/downloads/${encodeURIComponent(code)}/epub`;
  }

  /** The JPEG cover the feeds link (opds-covers.ts): OPDS 1.2 allows no WebP. */
  cover(code: string, width: OpdsCoverWidth): string {
    return `${this.root}/covers/${encodeURIComponent(code)}/${width}.jpg`;
  }
}

/** A stable id per book and per feed: the code never changes, the host may. */
export const bookUrn = (code: string) => `urn:lingonovel:book:${code}`;
export const feedUrn = (...parts: string[]) => ['urn:lingonovel:opds', ...parts].join(':');

/**
 * A book's entry. `full` says whether this reader may read the whole book (Access.everyChapter, server/content/access/): the
 * acquisition link is then the plain one, else a sample's. Either way it is the same download route,
 * which checks the plan again when the app follows it.
 */
export function bookEntry(book: Book, urls: OpdsUrls, full: boolean): BookEntry {
  const categories: BookEntry['categories'] = [];
  if (book.cefr)
    categories.push({ scheme: urls.feed('levels'), term: book.cefr, label: `Level ${book.cefr}` });
  if (book.language)
    categories.push({
      scheme: urls.feed('languages'),
      term: book.language,
      label: languageName(book.language),
    });
  const links: FeedLink[] = [
    {
      rel: full ? REL.acquisition : REL.sample,
      href: urls.epub(book.bookCode),
      type: EPUB_TYPE,
      title: full ? 'EPUB 3 with read-along audio' : 'Sample EPUB (chapter 1)',
    },
    { rel: REL.image, href: urls.cover(book.bookCode, 640), type: 'image/jpeg' },
    { rel: REL.thumbnail, href: urls.cover(book.bookCode, 320), type: 'image/jpeg' },
    {
      rel: 'alternate',
      href: urls.bookPage(book.bookCode),
      type: 'text/html',
      title: 'The book on Lingonovel',
    },
  ];
  return {
    id: bookUrn(book.bookCode),
    title: book.title,
    author: book.author,
    updated: book.updatedAt,
    published: book.createdAt,
    language: book.language,
    summary: book.description,
    categories,
    links,
  };
}
