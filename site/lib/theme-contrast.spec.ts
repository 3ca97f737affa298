import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every theme's colours (site/styles/global.css) against WCAG 2.2: text 4.5:1 on each surface it sits on
 * (1.4.3), control borders and the focus ring 3:1 (1.4.11). The ring is drawn 2px outside its control
 * (outline-offset), so it sits on a surface, never on the control's own fill. axe checks the pages as
 * drawn (e2e/themes.spec.ts); this checks every pair the tokens allow, drawn or not yet.
 */
const CSS = readFileSync(join(__dirname, '..', 'styles', 'global.css'), 'utf8');

function block(selector: string): Record<string, string> {
  const start = CSS.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no ${selector} block in global.css`);
  const body = CSS.slice(start, CSS.indexOf('\n}', start));
  // Every colour token here is #rrggbb (or an rgb() shadow): a value written otherwise would be skipped,
  // and the light one tested in its place, so it fails the test instead.
  const colours = [...body.matchAll(/^\s*(--[a-z-]+):\s*([^;]+);/gm)].filter(
    ([, , value]) => !/^(url|var)\(|(rem|px)$|^\d/.test(value),
  );
  for (const [, name, value] of colours)
    if (!/^(#[0-9a-f]{6}|rgb\(.*\))$/.test(value))
      throw new Error(`${selector} ${name}: ${value} is not #rrggbb`);
  return Object.fromEntries(colours.filter(([, , value]) => value.startsWith('#')).map((m) => [m[1], m[2]]));
}

const light = block(':root');
const THEMES: Record<string, Record<string, string>> = {
  light,
  dark: { ...light, ...block(":root[data-theme='dark']") },
  sepia: { ...light, ...block(":root[data-theme='sepia']") },
};

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const NEUTRAL = ['--paper', '--surface', '--surface-sunken', '--brand-surface'];
const EVERY_SURFACE = [
  ...NEUTRAL,
  '--brand-surface-strong',
  '--success-surface',
  '--danger-surface',
  '--warning-surface',
  '--highlight',
];
const TEXT_PAIRS: Array<[string, string[]]> = [
  ['--ink', EVERY_SURFACE],
  ['--muted', [...NEUTRAL, '--warning-surface']],
  ['--brand', NEUTRAL],
  ['--brand-dark', NEUTRAL],
  ['--success', [...NEUTRAL, '--success-surface']],
  // --danger on --highlight: a misspelt word's missed letters in dictation.
  ['--danger', [...NEUTRAL, '--danger-surface', '--highlight']],
  ['--danger-dark', [...NEUTRAL, '--danger-surface']],
  ['--warning', [...NEUTRAL, '--warning-surface']],
  ['--on-brand', ['--brand', '--brand-dark', '--danger', '--danger-dark']],
  // The play button and a chosen segment; the play button's hover is --brand-dark.
  ['--on-ink', ['--ink', '--brand-dark']],
];

/** The pairs under `minimum`, as "text on surface: ratio". */
function failures(
  theme: Record<string, string>,
  pairs: Array<[string, string[]]>,
  minimum: number,
): string[] {
  return pairs.flatMap(([fg, backgrounds]) =>
    backgrounds
      .map((bg) => [bg, contrast(theme[fg], theme[bg])] as const)
      .filter(([, ratio]) => ratio < minimum)
      .map(([bg, ratio]) => `${fg} on ${bg}: ${ratio.toFixed(2)}`),
  );
}

describe.each(Object.keys(THEMES))('the %s theme', (name) => {
  const theme = THEMES[name];

  it('defines every colour token as a colour', () => {
    for (const [fg, backgrounds] of TEXT_PAIRS)
      for (const token of [fg, ...backgrounds])
        expect([token, theme[token]]).toEqual([token, expect.stringMatching(/^#/)]);
  });

  it('gives text at least 4.5:1 on every surface it sits on', () => {
    expect(failures(theme, TEXT_PAIRS, 4.5)).toEqual([]);
  });

  it('gives control borders and the focus ring at least 3:1 on every surface', () => {
    expect(
      failures(
        theme,
        [
          ['--line-strong', NEUTRAL],
          ['--focus', EVERY_SURFACE],
        ],
        3,
      ),
    ).toEqual([]);
  });
});

it('knows a failing pair when it sees one (the light theme’s decorative line is not text)', () => {
  expect(contrast(light['--line'], light['--surface'])).toBeLessThan(3);
  expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
});
