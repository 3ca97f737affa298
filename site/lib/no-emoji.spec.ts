import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * No emoji or text glyph stands in for an icon anywhere in the site's sources (docs/design.md, "Icons"):
 * icons come from the one SVG set (site/lib/icons.ts), because Debian's Chromium and many phones draw some
 * emoji as empty boxes, and a glyph's size and weight follow the font, not the design. The journeys check
 * the pages as drawn (e2e/phone-pages.spec.ts); this checks every source, pages the journeys never reach
 * included. Comments are left out: they are not shown.
 */
const SITE = join(__dirname, '..');

/** Pictographs, and the text symbols that have been used as icons: ticks, stars, grips, arrows, chevrons. */
const ICON_GLYPH =
  /[\p{Extended_Pictographic}\u2713\u2714\u2605\u2606\u283f\u2039\u203a\u2190-\u2193\u25b2-\u25bc]/gu;
/**
 * Signs that are text, not icons: × in speed labels ("1.5×"), · between items, − in "−50 ms", ⌘ in a
 * shortcut, © in the footer.
 */
const TEXT_SIGNS = new Set(['×', '·', '−', '⌘', '©']);

const sources = (readdirSync(SITE, { recursive: true }) as string[]).filter(
  (file) => /\.(astro|tsx|ts|css)$/.test(file) && !/\.(spec|d)\.ts$/.test(file),
);

/** The source with its comments and key names blanked (lines kept, so line numbers stay right). */
function withoutComments(source: string): string {
  const blank = (comment: string) => comment.replace(/[^\n]/g, ' ');
  return (
    source
      .replace(/\/\*[\s\S]*?\*\//g, blank)
      .replace(/<!--[\s\S]*?-->/g, blank)
      // A key's name (<kbd>←</kbd>) is text: the arrow is what is printed on the key.
      .replace(/<kbd>[^<]*<\/kbd>/g, blank)
      .replace(
        /(^|[^:'"`\\])\/\/[^\n]*/g,
        (match, before: string) => before + blank(match.slice(before.length)),
      )
  );
}

function iconGlyphs(file: string): string[] {
  const lines = withoutComments(readFileSync(join(SITE, file), 'utf8')).split('\n');
  return lines.flatMap((line, i) =>
    [...line.matchAll(ICON_GLYPH)]
      .map(([glyph]) => glyph)
      .filter((glyph) => !TEXT_SIGNS.has(glyph))
      .map((glyph) => `site/${relative(SITE, join(SITE, file))}:${i + 1}: ${glyph}`),
  );
}

describe('icons in the site sources', () => {
  it('finds the sources to look through', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sources).toContain(join('styles', 'global.css'));
  });

  it('use no emoji or symbol glyph as an icon', () => {
    expect(sources.flatMap(iconGlyphs)).toEqual([]);
  });

  it('would see one', () => {
    expect('<span aria-hidden="true">🔒</span> ★ ‹ ›'.match(ICON_GLYPH)).toEqual(['🔒', '★', '‹', '›']);
    const blanked = withoutComments("content: '✓'; // ★ a comment\n/* ⠿ */");
    expect(blanked.match(ICON_GLYPH)).toEqual(['✓']);
    expect(blanked.split('\n')).toHaveLength(2);
    expect([...'1.5× · −50 ms ⌘C ©'.matchAll(ICON_GLYPH)].filter(([g]) => !TEXT_SIGNS.has(g))).toEqual([]);
  });
});
