import { validate as validateXml } from 'fast-xml-parser';
import { acquisitionFeed, escapeXml, openSearchDescription, REL, type BookEntry } from './feed-writer';

const at = new Date('2026-11-27T10:00:00Z');
const hostile = 'A & B <b>"quoted"</b> \'x\' \u0001\u000B\uFFFF end';

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
    expect(escapeXml(hostile)).toBe('A &amp; B &lt;b&gt;&quot;quoted&quot;&lt;/b&gt; &apos;x&apos;  end');
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
    expect(validateXml(xml)).toBe(true);
    expect(xml).toContain('href="https://x.example/a?b=1&amp;c=2"');
    expect(xml).toContain('<opensearch:totalResults>1</opensearch:totalResults>');
  });

  it('keeps the OpenSearch template placeholder as written', () => {
    const xml = openSearchDescription('https://x.example/api/v1/opds/search?q={searchTerms}');
    expect(validateXml(xml)).toBe(true);
    expect(xml).toContain('template="https://x.example/api/v1/opds/search?q={searchTerms}"');
  });
});
