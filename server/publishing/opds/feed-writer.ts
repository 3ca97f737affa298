/**
 * Writes OPDS 1.2 catalogue documents (Atom feeds with the OPDS, Dublin Core and OpenSearch namespaces)
 * from plain values. Every text and attribute goes through `escapeXml`, so a title such as `Tom & Jerry`
 * or a description with `<` can never break a feed. docs/formats.md "OPDS 1.2" describes the feeds.
 */

export const NAVIGATION_TYPE = 'application/atom+xml;profile=opds-catalog;kind=navigation';
export const ACQUISITION_TYPE = 'application/atom+xml;profile=opds-catalog;kind=acquisition';
export const OPENSEARCH_TYPE = 'application/opensearchdescription+xml';
export const EPUB_TYPE = 'application/epub+zip';

export const REL = {
  acquisition: 'http://opds-spec.org/acquisition',
  sample: 'http://opds-spec.org/acquisition/sample',
  image: 'http://opds-spec.org/image',
  thumbnail: 'http://opds-spec.org/image/thumbnail',
  subsection: 'subsection',
  /** OPDS 1.2 §6.2: a feed of the same books, newest first. */
  sortNew: 'http://opds-spec.org/sort/new',
} as const;

/**
 * Characters XML 1.0 does not allow at all: C0 controls other than tab, newline and return, U+FFFE/FFFF,
 * and lone surrogates (half of a pair, which no encoder can write as UTF-8).
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text safe inside an element or a double-quoted attribute. Characters XML forbids are dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export interface FeedLink {
  rel: string;
  href: string;
  type: string;
  title?: string;
}

export interface FeedHead {
  /** A stable URI naming the feed (not its URL: the host may change). */
  id: string;
  title: string;
  updated: Date;
  kind: 'navigation' | 'acquisition';
  /** self, start, up, search, paging…: written in this order. */
  links: FeedLink[];
  /** OpenSearch's response elements, on acquisition feeds (OPDS 1.2 §4: paginated feeds). */
  paging?: { total: number; startIndex: number; perPage: number };
}

/** A navigation entry: a link to another feed, with a line saying what it holds. */
export interface NavigationEntry {
  id: string;
  title: string;
  updated: Date;
  href: string;
  kind: 'navigation' | 'acquisition';
  /** How the link relates to this feed: `subsection` unless said (REL.sortNew for the newest books). */
  rel?: string;
  content: string;
}

/** A book as an acquisition feed lists it. */
export interface BookEntry {
  id: string;
  title: string;
  author: string;
  updated: Date;
  published: Date;
  language: string | null;
  summary: string;
  categories: Array<{ scheme: string; term: string; label: string }>;
  links: FeedLink[];
}

const link = ({ rel, href, type, title }: FeedLink) =>
  `<link rel="${escapeXml(rel)}" href="${escapeXml(href)}" type="${escapeXml(type)}"` +
  (title === undefined ? '' : ` title="${escapeXml(title)}"`) +
  '/>';

const element = (name: string, text: string) => `<${name}>${escapeXml(text)}</${name}>`;

function head(feed: FeedHead): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/terms/"' +
      ' xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">',
    element('id', feed.id),
    element('title', feed.title),
    element('updated', feed.updated.toISOString()),
    '<author><name>Lingonovel</name></author>',
    ...feed.links.map(link),
  ];
  if (feed.paging)
    lines.push(
      element('opensearch:totalResults', String(feed.paging.total)),
      element('opensearch:startIndex', String(feed.paging.startIndex)),
      element('opensearch:itemsPerPage', String(feed.paging.perPage)),
    );
  return lines.join('\n');
}

export function navigationFeed(feed: FeedHead, entries: NavigationEntry[]): string {
  const body = entries.map((entry) =>
    [
      '<entry>',
      element('title', entry.title),
      link({
        rel: entry.rel ?? REL.subsection,
        href: entry.href,
        type: entry.kind === 'navigation' ? NAVIGATION_TYPE : ACQUISITION_TYPE,
      }),
      element('updated', entry.updated.toISOString()),
      element('id', entry.id),
      `<content type="text">${escapeXml(entry.content)}</content>`,
      '</entry>',
    ].join('\n'),
  );
  return [head(feed), ...body, '</feed>', ''].join('\n');
}

export function acquisitionFeed(feed: FeedHead, entries: BookEntry[]): string {
  const body = entries.map((entry) =>
    [
      '<entry>',
      element('title', entry.title),
      `<author>${element('name', entry.author)}</author>`,
      element('id', entry.id),
      element('updated', entry.updated.toISOString()),
      element('published', entry.published.toISOString()),
      ...(entry.language ? [element('dc:language', entry.language)] : []),
      ...entry.categories.map(
        (category) =>
          `<category scheme="${escapeXml(category.scheme)}" term="${escapeXml(category.term)}"` +
          ` label="${escapeXml(category.label)}"/>`,
      ),
      `<summary type="text">${escapeXml(entry.summary)}</summary>`,
      ...entry.links.map(link),
      '</entry>',
    ].join('\n'),
  );
  return [head(feed), ...body, '</feed>', ''].join('\n');
}

/** The OpenSearch description a reading app fetches to learn how to search (rel="search" points here). */
export function openSearchDescription(searchTemplate: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">',
    element('ShortName', 'Lingonovel'),
    element('Description', 'Search the Lingonovel catalogue by title, author, narrator or description.'),
    element('InputEncoding', 'UTF-8'),
    element('OutputEncoding', 'UTF-8'),
    `<Url type="${escapeXml(ACQUISITION_TYPE)}" template="${escapeXml(searchTemplate)}"/>`,
    '</OpenSearchDescription>',
    '',
  ].join('\n');
}
