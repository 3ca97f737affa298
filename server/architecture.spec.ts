import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { PROJECT_ROOT } from './paths';

/**
 * Which folders may import which: the house's shape as a test (docs/architecture.md, "Contexts and their
 * walls"). Imports are read from the source text, so a rule breaks the moment someone adds the import,
 * whoever calls it.
 */

const SERVER = join(PROJECT_ROOT, 'server');

/** Folders under server/ that are not features: the shared pieces, the HTTP layer, wiring and tests. */
const NOT_FEATURES = new Set(['common', 'http', 'database', 'migrations', 'media', 'test', 'types']);
/** The HTTP layer's surface that controllers use: the decorators and interceptors a route declares. */
const HTTP_PUBLIC = new Set([
  'http/body/multipart.interceptor',
  'http/rate-limit',
  'http/memory-rate-limit',
  'http/form-redirect.interceptor',
]);
/** What shared code may use besides itself: the configuration and the portable SQL helpers. */
const SHARED_MAY_IMPORT = new Set(['config', 'paths', 'database/sql']);
/** Files at server/'s root that anyone may import: the configuration, its module and the project's paths. */
const ROOT_SHARED = new Set(['config', 'config-error', 'config.module', 'paths']);

export interface ImportEdge {
  /** The importing file, relative to server/ without its extension, e.g. `books/books.service`. */
  from: string;
  /** The import as written. */
  specifier: string;
}

const topOf = (path: string) => path.split('/')[0];

/** What an edge breaks, or null. Paths are relative to server/, as posix paths without extensions. */
export function brokenRule({ from, specifier }: ImportEdge): string | null {
  if (/(^|\/)site\//.test(specifier) && specifier.startsWith('.'))
    return 'the server imports the site’s source';
  if (!specifier.startsWith('.')) return null;
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  if (target.startsWith('..')) return 'the server imports a file outside server/';
  const [source, destination] = [topOf(from), topOf(target)];
  if (source === destination) return null;
  if (source === 'migrations')
    return 'a migration imports application code (it must never change with the app)';
  if (source === 'common' && !SHARED_MAY_IMPORT.has(target))
    return 'shared code (common/) imports a feature or a layer above it';
  if (source === 'media' && !NOT_FEATURES.has(destination) && !ROOT_SHARED.has(target))
    return 'media code imports a feature';
  // Root files (main, app.module, config) are the wiring, not a feature.
  const isFeature = from.includes('/') && !NOT_FEATURES.has(source);
  if (isFeature && destination === 'http' && !HTTP_PUBLIC.has(target))
    return 'a feature imports the HTTP layer’s internals';
  return null;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'demo' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(file, 'utf8');
  const from = relative(SERVER, file).split('\\').join('/').replace(/\.ts$/, '');
  const found = text.matchAll(/(?:from\s+|import\s*\(\s*|require\(\s*|^import\s+)['"]([^'"]+)['"]/gm);
  return [...found].map((match) => ({ from, specifier: match[1] }));
}

describe('architecture', () => {
  it('finds each kind of broken rule', () => {
    expect(brokenRule({ from: 'common/clock', specifier: '../books/book.entity' })).toMatch(/shared/);
    expect(brokenRule({ from: 'common/rate-windows', specifier: '../database/sql' })).toBeNull();
    expect(brokenRule({ from: 'media/media.service', specifier: '../access/access.service' })).toMatch(
      /media/,
    );
    expect(brokenRule({ from: 'media/serve/send', specifier: '../../database/sql' })).toBeNull();
    expect(brokenRule({ from: 'books/books.service', specifier: '../http/page-cache' })).toMatch(/HTTP/);
    expect(
      brokenRule({ from: 'books/books.controller', specifier: '../http/body/multipart.interceptor' }),
    ).toBeNull();
    expect(brokenRule({ from: 'http/create-app', specifier: '../access/clip-gate' })).toBeNull();
    expect(brokenRule({ from: 'migrations/1-Initial', specifier: '../common/time-zone' })).toMatch(
      /migration/,
    );
    expect(brokenRule({ from: 'migrations/1-Initial', specifier: './column-types' })).toBeNull();
    expect(brokenRule({ from: 'http/script-hashes', specifier: '../../site/lib/inline-scripts' })).toMatch(
      /site/,
    );
  });

  it('holds for every file of the server', () => {
    const files = sourceFiles(SERVER);
    expect(files.length).toBeGreaterThan(100);
    const broken = files
      .flatMap(importsOf)
      .map((edge) => ({ edge, rule: brokenRule(edge) }))
      .filter(({ rule }) => rule !== null)
      .map(({ edge, rule }) => `${edge.from} imports ${edge.specifier}: ${rule}`);
    expect(broken).toEqual([]);
  });

  it('points comments and docs at files in the repository, never at the original specification', () => {
    const roots = ['server', 'site', 'e2e', 'scripts', 'docs'].map((dir) => join(PROJECT_ROOT, dir));
    const texts = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return ['demo', 'node_modules'].includes(entry.name) ? [] : texts(path);
        return /\.(ts|tsx|astro|mjs|cjs|md)$/.test(entry.name) ? [path] : [];
      });
    const citing = [...roots, join(PROJECT_ROOT, 'README.md')]
      .flatMap((root) => (root.endsWith('.md') ? [root] : texts(root)))
      .filter((file) => file !== __filename && /\bSPEC\.md\b/.test(readFileSync(file, 'utf8')));
    expect(citing.map((file) => relative(PROJECT_ROOT, file))).toEqual([]);
  });

  it('reads imports the way they are written', () => {
    const here = importsOf(join(SERVER, 'http', 'create-app.ts'));
    expect(here.map((edge) => edge.specifier)).toContain('../access/clip-gate');
  });
});
