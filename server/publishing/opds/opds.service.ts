import { Inject, Injectable, NotFoundException, StreamableFile } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { CEFR_LEVELS } from '../../content/catalogue/book-levels';
import {
  NO_LEVEL,
  parseBrowseQuery,
  type BookSort,
  type BrowseFilter,
} from '../../content/catalogue/browse-query';
import { CatalogueService, type CatalogueLanguage } from '../../content/catalogue/catalogue.service';
import { languageName, NO_LANGUAGE, NO_LANGUAGE_NAME } from '../../content/catalogue/languages';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { ValidationFailed } from '../../platform/common/api-error';
import { Clock } from '../../platform/common/clock';
import { Access } from '../../content/access/access.service';
import type { User } from '../../accounts/users/user.entity';
import {
  acquisitionFeed,
  ACQUISITION_TYPE,
  navigationFeed,
  NAVIGATION_TYPE,
  OPENSEARCH_TYPE,
  openSearchDescription,
  type FeedLink,
  REL,
  type NavigationEntry,
} from './feed-writer';
import { bookEntry, feedUrn, OpdsUrls } from './opds-links';

/** One acquisition feed: its place, id and title once its parameters are read, where "up" goes. */
interface AcquisitionSpec {
  /** The browse parameters the feed fixes (browse-query.ts reads and checks them). */
  fixed: { lang?: string; cefr?: string; q?: unknown; sort?: BookSort };
  /** From the checked filter: the path under /api/v1/opds ("languages/pt-pt"), its id and title. */
  names: (filter: BrowseFilter) => { path: string; id: string; title: string };
  up: string;
  /** Answer 404 with this message when no book matches (a language or level the catalogue lacks). */
  emptyIsMissing?: string;
}

const countOf = (n: number) => `${n} ${n === 1 ? 'book' : 'books'}`;
/**
 * The document as bytes: given a string, Express rewrites the Content-Type set by the route (adding a
 * charset and reordering `profile` and `kind`); the XML declaration already says UTF-8.
 */
const xml = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  return new StreamableFile(bytes, { length: bytes.length });
};
const latest = (dates: Date[]): Date | null =>
  dates.reduce<Date | null>((max, date) => (max === null || date > max ? date : max), null);

/**
 * The OPDS 1.2 catalogue (docs/formats.md "OPDS 1.2"): navigation feeds by language and level, and
 * paginated acquisition feeds made from the catalogue's own browse query (content/catalogue/browse-query.ts and
 * repository/book-browse.ts): the same filters and checks as GET guest/books, five queries a page
 * whatever its size. Whether the acquisition links are full or samples is asked once per feed.
 */
@Injectable()
export class OpdsService {
  private readonly urls: OpdsUrls;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly catalogue: CatalogueService,
    private readonly books: BooksRepository,
    private readonly access: Access,
    private readonly clock: Clock,
  ) {
    this.urls = new OpdsUrls(config.publicUrl);
  }

  /** The links every feed carries: itself, the root, where "up" goes, and the search description. */
  private links(self: string, kind: 'navigation' | 'acquisition', up: string | null): FeedLink[] {
    const nav = (rel: string, href: string): FeedLink => ({ rel, href, type: NAVIGATION_TYPE });
    return [
      { rel: 'self', href: self, type: kind === 'navigation' ? NAVIGATION_TYPE : ACQUISITION_TYPE },
      nav('start', this.urls.root),
      ...(up ? [nav('up', up)] : []),
      { rel: 'search', href: this.urls.openSearch, type: OPENSEARCH_TYPE, title: 'Search the catalogue' },
    ];
  }

  /** The languages with books, and when any book last changed: the navigation feeds' `updated`. */
  private async lastChange(): Promise<{ languages: CatalogueLanguage[]; at: Date }> {
    const languages = await this.catalogue.languages();
    return { languages, at: latest(languages.map((language) => language.lastChange)) ?? this.clock.now() };
  }

  async root(): Promise<StreamableFile> {
    const { at } = await this.lastChange();
    const entry = (
      path: string,
      title: string,
      kind: NavigationEntry['kind'],
      content: string,
      rel?: string,
    ): NavigationEntry => ({
      id: feedUrn(path),
      title,
      updated: at,
      href: this.urls.feed(path),
      kind,
      rel,
      content,
    });
    return xml(
      navigationFeed(
        {
          id: feedUrn('root'),
          title: 'Lingonovel',
          updated: at,
          kind: 'navigation',
          links: this.links(this.urls.root, 'navigation', null),
        },
        [
          entry('languages', 'By language', 'navigation', 'Books grouped by the language they teach.'),
          entry('levels', 'By level', 'navigation', 'Books grouped by CEFR level, from A1 to C2.'),
          entry('new', 'New', 'acquisition', 'The newest books first.', REL.sortNew),
          entry('books', 'All books', 'acquisition', 'Every book, by title.'),
        ],
      ),
    );
  }

  async languages(): Promise<StreamableFile> {
    const { languages, at } = await this.lastChange();
    const self = this.urls.feed('languages');
    return xml(
      navigationFeed(
        {
          id: feedUrn('languages'),
          title: 'By language',
          updated: at,
          kind: 'navigation',
          links: this.links(self, 'navigation', this.urls.root),
        },
        languages.map((language) => ({
          id: feedUrn('languages', language.key),
          title: language.name,
          updated: language.lastChange,
          href: this.urls.feed(`languages/${language.key}`),
          kind: 'acquisition',
          content: countOf(language.books),
        })),
      ),
    );
  }

  /** The levels with books, A1 to C2 then the books without one, counted by the browse query's facet. */
  async levels(): Promise<StreamableFile> {
    const [{ at }, { facets }] = await Promise.all([
      this.lastChange(),
      this.books.browse({
        lang: null,
        cefr: null,
        difficulty: null,
        q: null,
        sort: 'newest',
        page: 1,
        perPage: 1,
      }),
    ]);
    const self = this.urls.feed('levels');
    const levels = [...CEFR_LEVELS, NO_LEVEL].filter((level) => facets.cefr[level]);
    return xml(
      navigationFeed(
        {
          id: feedUrn('levels'),
          title: 'By level',
          updated: at,
          kind: 'navigation',
          links: this.links(self, 'navigation', this.urls.root),
        },
        levels.map((level) => ({
          id: feedUrn('levels', level),
          title: level === NO_LEVEL ? 'Without a level' : `Level ${level}`,
          updated: at,
          href: this.urls.feed(`levels/${level}`),
          kind: 'acquisition',
          content: countOf(facets.cefr[level]),
        })),
      ),
    );
  }

  language(key: string, query: Record<string, unknown>, user: User | undefined): Promise<StreamableFile> {
    const spec: AcquisitionSpec = {
      fixed: { lang: key },
      names: ({ lang }) => ({
        path: `languages/${lang}`,
        id: feedUrn('languages', lang!),
        title: lang === NO_LANGUAGE ? NO_LANGUAGE_NAME : languageName(lang),
      }),
      up: this.urls.feed('languages'),
      emptyIsMissing: 'This catalogue has no books in that language.',
    };
    return this.acquisition(spec, query, user);
  }

  level(cefr: string, query: Record<string, unknown>, user: User | undefined): Promise<StreamableFile> {
    const spec: AcquisitionSpec = {
      fixed: { cefr },
      names: ({ cefr: level }) => ({
        path: `levels/${level}`,
        id: feedUrn('levels', level!),
        title: level === NO_LEVEL ? 'Without a level' : `Level ${level}`,
      }),
      up: this.urls.feed('levels'),
      emptyIsMissing: 'This catalogue has no books at that level.',
    };
    return this.acquisition(spec, query, user);
  }

  allBooks(query: Record<string, unknown>, user: User | undefined): Promise<StreamableFile> {
    const names = () => ({ path: 'books', id: feedUrn('books'), title: 'All books' });
    return this.acquisition({ fixed: { sort: 'title' }, names, up: this.urls.root }, query, user);
  }

  newest(query: Record<string, unknown>, user: User | undefined): Promise<StreamableFile> {
    const names = () => ({ path: 'new', id: feedUrn('new'), title: 'New' });
    return this.acquisition({ fixed: { sort: 'newest' }, names, up: this.urls.root }, query, user);
  }

  /** Missing or blank words are a 422: a reading app always sends what the reader typed. */
  search(query: Record<string, unknown>, user: User | undefined): Promise<StreamableFile> {
    if (query.q === undefined || (typeof query.q === 'string' && !query.q.trim()))
      throw ValidationFailed.field('q', 'Give the words to search for.');
    const names = ({ q }: BrowseFilter) => ({
      path: 'search',
      id: feedUrn('search', encodeURIComponent(q ?? '')),
      title: `Search: ${q}`,
    });
    return this.acquisition({ fixed: { q: query.q }, names, up: this.urls.root }, query, user);
  }

  openSearch(): StreamableFile {
    return xml(openSearchDescription(this.urls.searchTemplate));
  }

  private async acquisition(spec: AcquisitionSpec, query: Record<string, unknown>, user: User | undefined) {
    const parsed = parseBrowseQuery({ ...spec.fixed, page: query.page }, { perPage: false });
    if (!parsed.ok) {
      // The language and the level are in the path: a bad one names no feed.
      if (parsed.errors.lang) throw new NotFoundException('There is no such language.');
      if (parsed.errors.cefr) throw new NotFoundException('There is no such level.');
      throw new ValidationFailed(parsed.errors);
    }
    const filter = parsed.filter;
    // Feeds show no filters: the facets' three counts are skipped.
    const [page, whole] = await Promise.all([
      this.books.browse(filter, { facets: false }),
      this.access.everyChapter(user),
    ]);
    if (page.total === 0 && spec.emptyIsMissing) throw new NotFoundException(spec.emptyIsMissing);
    const last = Math.max(1, Math.ceil(page.total / filter.perPage));
    if (filter.page > last)
      throw new NotFoundException(
        `There is no page ${filter.page}: this feed has ${last === 1 ? '1 page' : `${last} pages`}.`,
      );

    const { path, id, title } = spec.names(filter);
    const at = (n: number) => this.urls.feed(path, { q: filter.q, page: n > 1 ? n : null });
    const paging: FeedLink[] = [
      { rel: 'first', href: at(1), type: ACQUISITION_TYPE },
      ...(filter.page > 1 ? [{ rel: 'previous', href: at(filter.page - 1), type: ACQUISITION_TYPE }] : []),
      ...(filter.page < last ? [{ rel: 'next', href: at(filter.page + 1), type: ACQUISITION_TYPE }] : []),
      { rel: 'last', href: at(last), type: ACQUISITION_TYPE },
    ];
    return xml(
      acquisitionFeed(
        {
          id,
          title,
          updated: latest(page.books.map((book) => book.updatedAt)) ?? this.clock.now(),
          kind: 'acquisition',
          links: [...this.links(at(filter.page), 'acquisition', spec.up), ...paging],
          paging: {
            total: page.total,
            startIndex: (filter.page - 1) * filter.perPage + 1,
            perPage: filter.perPage,
          },
        },
        page.books.map((book) => bookEntry(book, this.urls, whole)),
      ),
    );
  }
}
