import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * Each demo cover says the level the catalogue gives its book (server/seed/demo/catalogue.json, `cefr`):
 * the book card prints that level under the cover, so "A1" on the cover of an A2 book stands out. The
 * SVG is the source (generate.py rasterises it to the JPEG the seed stores); one level, never a range.
 */
const ROOT = join(__dirname, '..', '..');
const { books } = JSON.parse(readFileSync(join(ROOT, 'server', 'seed', 'demo', 'catalogue.json'), 'utf8')) as {
  books: Array<{ title: string; cefr: string; cover: string }>;
};

/** Every CEFR level written in the cover's text elements. */
function levelsOn(svg: string): string[] {
  const texts = [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);
  return texts.flatMap((text) => text.match(/\b[ABC][12]\b/g) ?? []);
}

describe('demo covers', () => {
  it.each(books.map((book) => [book.title, book] as const))('%s shows its CEFR level', (_title, book) => {
    const svg = readFileSync(join(__dirname, 'covers', `${basename(book.cover, '.jpg')}.svg`), 'utf8');
    expect(levelsOn(svg)).toEqual([book.cefr]);
  });
});
