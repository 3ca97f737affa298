import { SaxesParser } from 'saxes';
import {
  acquisitionFeed,
  escapeXml,
  navigationFeed,
  openSearchDescription,
  REL,
  type BookEntry,
} from './feed-writer';

/** Strict XML 1.0 with namespaces: forbidden characters, lone surrogates and unbound prefixes fail. */
function wellFormed(xml: string): true | string {
  const parser = new SaxesParser({ xmlns: true });
  let failure: string | null = null;
  parser.on('error', (error) => (failure ??= error.message));
  parser.write(xml).close();
  return failure ?? true;
}

const at = new Date('2026-11-27T10:00:00Z');
const hostile = 'A & B <b>"quoted"</b> \'x\' \u0001\u000B\uFFFF \uD800 \uDC00 end';

const book = (text: string): BookEntry => ({
  id: 'urn:lingonovel:book:abc',
  title: text,
  author: text,
  updated: at,
  published: at,
  language: 'fr',
  summary: text,
  categories: [{ scheme: 'https://x.example/levels', term: 'A1', label: text }],
  links: [
    { rel: REL.sample, href: 'https://x.example/a?b=1&c=2', type: 'application/epub+zip', title: text },
  ],
});

describe('feed writer', () => {
  it('escapes markup and drops characters XML 1.0 forbids', () => {
    expect(escapeXml(hostile)).toBe('A &amp; B &lt;b&gt;&quot;quoted&quot;&lt;/b&gt; &apos;x&apos;    end');
  });

  it('keeps surrogate pairs and drops only lone halves, in either order', () => {
    expect(escapeXml('a\uD83D\uDE00b')).toBe('a\u{1F600}b');
    expect(escapeXml('\uDE00\uD83D|\uD83D|\uDE00')).toBe('||');
  });

  it('is checked by a parser that refuses what the writer drops', () => {
    for (const bad of ['\u0001', '\uFFFF', '\uD800']) expect(wellFormed(`<a>${bad}</a>`)).not.toBe(true);
    expect(wellFormed('<a><dc:title>x</dc:title></a>')).not.toBe(true);
  });

  it('writes a well-formed feed whatever the text of a book', () => {
    const xml = acquisitionFeed(
      {
        id: 'urn:lingonovel:opds:books',
        title: hostile,
        updated: at,
        kind: 'acquisition',
        links: [],
        paging: { total: 1, startIndex: 1, perPage: 24 },
      },
      [book(hostile)],
    );
    expect(wellFormed(xml)).toBe(true);
    expect(xml).toContain('href="https://x.example/a?b=1&amp;c=2"');
    expect(xml).toContain('<opensearch:totalResults>1</opensearch:totalResults>');
  });

  it('keeps the OpenSearch template placeholder as written', () => {
    const xml = openSearchDescription('https://x.example/api/v1/opds/search?q={searchTerms}');
    expect(wellFormed(xml)).toBe(true);
    expect(xml).toContain('Search the Lingonovel catalogue by title, author, narrator or description.');
    expect(xml).toContain('template="https://x.example/api/v1/opds/search?q={searchTerms}"');
  });

  it('links a navigation entry with its own rel, subsection unless said', () => {
    const entry = { id: 'urn:x', title: 'New', updated: at, href: 'https://x.example/new', content: hostile };
    const xml = navigationFeed(
      { id: 'urn:root', title: 'Root', updated: at, kind: 'navigation', links: [] },
      [
        { ...entry, kind: 'acquisition', rel: REL.sortNew },
        { ...entry, kind: 'navigation' },
      ],
    );
    expect(wellFormed(xml)).toBe(true);
    expect(xml.match(/<link rel="[^"]+"/g)).toEqual([
      '<link rel="http://opds-spec.org/sort/new"',
      '<link rel="subsection"',
    ]);
  });
});
