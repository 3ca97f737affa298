import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Comments and docs send readers to a section of a document: `docs/x.md, "Section"`, `(docs/x.md
 * "Section")` or a link `docs/x.md#section`. A renamed section leaves them pointing nowhere, so every
 * such reference must name a heading that exists.
 */
const ROOT = join(__dirname, '..');
const SKIP = new Set(['node_modules', 'dist', 'demo', 'test-results', 'storage', '.astro', '.git']);

function texts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return SKIP.has(entry.name) || entry.name.endsWith('-snapshots') ? [] : texts(path);
    return /\.(ts|tsx|astro|mjs|cjs|md|css|sh|yaml)$/.test(entry.name) || entry.name === 'Dockerfile'
      ? [path]
      : [];
  });
}

/** A heading or a cited name, compared without case, quotes' shapes or backticks. */
const normal = (text: string) =>
  text.toLowerCase().replace(/[’‘]/g, "'").replace(/[`*]/g, '').replace(/\s+/g, ' ').trim();

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[`*]/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/**
 * What a document offers to be cited by: its headings, each also by its name before a colon or a comma
 * ("Downloads" for "## Downloads: `/api/v1/downloads/…`"), and its bold labels ("**Who gets what**").
 * Anchors are the headings' own.
 */
const sectionsOf = new Map<string, { names: string[]; headings: string[] }>();
function sections(doc: string): { names: string[]; headings: string[] } | null {
  const path = join(ROOT, doc);
  if (!existsSync(path)) return null;
  if (!sectionsOf.has(doc)) {
    const text = readFileSync(path, 'utf8');
    const headings = text
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => line.replace(/^#+ /, '').trim());
    const labels = [...text.matchAll(/\*\*([^*\n]{2,80}?)[.:]?\*\*/g)].map((match) => match[1]);
    const names = [
      ...headings,
      ...headings.flatMap((heading) => [heading.split(/[:(]/)[0], heading.split(/[:,(]/)[0]]),
      ...labels,
    ];
    sectionsOf.set(doc, { names: names.map(normal), headings });
  }
  return sectionsOf.get(doc)!;
}

export function brokenReferences(file: string, text: string): string[] {
  const broken: string[] = [];
  // Comment markers and line breaks inside a reference are read as one space.
  const flat = text.replace(/\n\s*(\*|\/\/|#)?\s*/g, ' ');
  for (const match of flat.matchAll(/(docs\/[\w-]+\.md)(?:,| ,)?\s*["“]([^"”]{2,80})["”]/g)) {
    const [, doc, section] = match;
    const found = sections(doc);
    if (found && !found.names.includes(normal(section))) broken.push(`${file}: ${doc}, "${section}"`);
  }
  for (const match of flat.matchAll(/\b((?:docs\/)?[\w-]+\.md)#([\w-]+)/g)) {
    const [, named, slug] = match;
    const doc = named.startsWith('docs/') || named === 'README.md' ? named : `docs/${named}`;
    const found = sections(doc);
    if (found && !found.headings.some((heading) => anchor(heading) === slug))
      broken.push(`${file}: ${named}#${slug}`);
  }
  return broken;
}

describe('references to a section of the docs', () => {
  it('name sections that exist', () => {
    const files = ['server', 'site', 'e2e', 'scripts', 'docs', 'deploy']
      .flatMap((dir) => texts(join(ROOT, dir)))
      .concat([join(ROOT, 'README.md'), join(ROOT, 'Dockerfile')])
      .filter((file) => file !== __filename);
    expect(files.length).toBeGreaterThan(300);
    const broken = files.flatMap((file) =>
      brokenReferences(relative(ROOT, file), readFileSync(file, 'utf8')),
    );
    expect(broken).toEqual([]);
  });

  it('finds a section that does not exist, in a comment or a link', () => {
    expect(brokenReferences('x.ts', '// see docs/architecture.md, "No such section"')).toHaveLength(1);
    expect(brokenReferences('x.ts', '/* (docs/architecture.md "Contexts and their\n * walls") */')).toEqual(
      [],
    );
    expect(brokenReferences('x.md', '[x](docs/architecture.md#no-such-section)')).toHaveLength(1);
    expect(brokenReferences('x.md', '[x](docs/architecture.md#contexts-and-their-walls)')).toEqual([]);
  });
});
