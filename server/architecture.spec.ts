import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { PROJECT_ROOT } from './platform/paths';

/**
 * The server's walls (docs/architecture.md, "Contexts and their walls"): dependency-cruiser reads every
 * import of the server against the rules of scripts/dependency-walls.cjs. A rule that can never fail
 * proves nothing, so each one is also run on a scratch tree where a file breaks it, and must catch it.
 */

interface Walls {
  EXCEPTIONS: Record<string, { from: string; to: string; reason: string }>;
  HTTP_FOR_ROUTES: string[];
  forbidden: Array<{ name: string }>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const walls = require('../scripts/dependency-walls.cjs') as Walls;

interface Cruise {
  summary: { violations: Array<{ from: string; to: string; rule: { name: string } }> };
  modules: Array<{ source: string; dependencies: Array<{ resolved: string }> }>;
}

const DEPCRUISE = join(PROJECT_ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** dependency-cruiser on `server/` of `root`, with the project's configuration, as its JSON report. */
function cruise(root: string): Cruise {
  const config = join(PROJECT_ROOT, '.dependency-cruiser.cjs');
  const output = execFileSync(
    process.execPath,
    [DEPCRUISE, 'server', '--config', config, '--output-type', 'json', '--no-progress'],
    { cwd: root, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
  );
  return JSON.parse(output) as Cruise;
}

const described = (found: Cruise) =>
  found.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`);

/**
 * One file breaking each rule (and a few imports the rules allow, which must stay quiet), as
 * path → what it imports; `type:` marks an import of types only.
 */
const PLANTED: Record<string, string[]> = {
  'server/platform/common/planted.ts': ['../../learning/reading/target'],
  'server/platform/database/schema.ts': [
    '../../content/catalogue/entities/book.entity',
    '../../learning/words/target',
  ],
  'server/accounts/billing/planted.ts': ['../../content/catalogue/target'],
  'server/content/catalogue/planted.ts': [
    '../../learning/reading/target',
    '../../seed/target',
    './entities/book.entity',
  ],
  'server/publishing/downloads/planted.ts': [
    '../../learning/reading/target',
    '../../content/access/target',
    '../../http/rate-limit',
  ],
  'server/learning/reading/planted.ts': [
    '../../publishing/chapters/chapters.dto',
    '../../content/catalogue/entities/chapter.entity',
  ],
  'server/publishing/books/planted.ts': ['../../http/page-cache', '../../http/body/multipart.interceptor'],
  'server/platform/migrations/1-Planted.ts': ['../common/target', './column-types'],
  'server/http/planted.ts': [
    '../../site/lib/target',
    '../learning/reading/target',
    '../../scripts/target',
    '../health/target',
  ],
  'server/http/create-app.ts': ['../app.module', '../health/health-aliases', '../cli/target'],
  'server/learning/words/planted.ts': [
    '../../test/harness',
    './words.service.spec',
    '../../content/dictionaries/fixtures.testing',
  ],
  'server/main.ts': ['./learning/reading/target', './http/page-cache'],
  'server/platform/media/cycle-a.ts': ['./cycle-b'],
  'server/platform/media/cycle-b.ts': ['./cycle-a'],
  'server/http/types-a.ts': ['type:./types-b'],
  'server/http/types-b.ts': ['type:./types-a'],
};
const EXPECTED = [
  'platform-stays-below: server/platform/common/planted.ts → server/learning/reading/target.ts',
  'the-entity-list-names-entities-only: server/platform/database/schema.ts → server/learning/words/target.ts',
  'accounts-know-no-content: server/accounts/billing/planted.ts → server/content/catalogue/target.ts',
  'content-under-the-features: server/content/catalogue/planted.ts → server/learning/reading/target.ts',
  'content-under-the-features: server/content/catalogue/planted.ts → server/seed/target.ts',
  'publishing-apart-from-learning: server/publishing/downloads/planted.ts → server/learning/reading/target.ts',
  'learning-apart-from-publishing: server/learning/reading/planted.ts → server/publishing/chapters/chapters.dto.ts',
  'http-below-operations: server/http/planted.ts → server/health/target.ts',
  'the-assembly-takes-the-module-and-health-aliases-only: server/http/create-app.ts → server/cli/target.ts',
  'features-use-the-route-surface-of-http: server/publishing/books/planted.ts → server/http/page-cache.ts',
  'migrations-stand-alone: server/platform/migrations/1-Planted.ts → server/platform/common/target.ts',
  'server-never-imports-the-site: server/http/planted.ts → site/lib/target.ts',
  'server-stays-in-server: server/http/planted.ts → scripts/target.ts',
  'production-never-imports-tests: server/learning/words/planted.ts → server/test/harness.ts',
  'production-never-imports-tests: server/learning/words/planted.ts → server/learning/words/words.service.spec.ts',
  'production-never-imports-tests: server/learning/words/planted.ts → server/content/dictionaries/fixtures.testing.ts',
  'no-cycles: server/platform/media/cycle-a.ts → server/platform/media/cycle-b.ts',
  'no-cycles: server/http/types-a.ts → server/http/types-b.ts',
];

/** One line importing `spec` (`type:` for types only), and using it. */
const importLine = (spec: string, i: number) =>
  spec.startsWith('type:')
    ? `import type * as m${i} from '${spec.slice(5)}';\nexport type T${i} = typeof m${i};\n`
    : `import * as m${i} from '${spec}';\nexport const v${i} = m${i};\n`;

function plantedTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'lingonovel-walls-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    'server/tsconfig.json',
    JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'ES2022' } }),
  );
  const targets = new Set<string>();
  for (const [path, imports] of Object.entries(PLANTED)) {
    write(path, imports.map(importLine).join(''));
    for (const spec of imports) targets.add(join(dirname(path), `${spec.replace(/^type:/, '')}.ts`));
  }
  for (const target of targets) if (!(target in PLANTED)) write(target, 'export const planted = 1;\n');
  return root;
}

describe('architecture', () => {
  const found = cruise(PROJECT_ROOT);

  it('holds for every file of the server', () => {
    expect(found.modules.filter((module) => module.source.startsWith('server/')).length).toBeGreaterThan(300);
    expect(described(found)).toEqual([]);
  });

  it('catches a planted violation of every rule, and lets the allowed imports through', () => {
    const root = plantedTree();
    try {
      const planted = described(cruise(root));
      expect(planted.sort()).toEqual([...EXPECTED].sort());
      const caught = new Set(planted.map((line) => line.split(':')[0]));
      expect(walls.forbidden.map((rule) => rule.name).filter((name) => !caught.has(name))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('needs every exception it names, and every part of http/ a route may use', () => {
    const imported = (from: RegExp, to: RegExp) =>
      found.modules.some(
        (module) =>
          from.test(module.source) && module.dependencies.some((dependency) => to.test(dependency.resolved)),
      );
    for (const [name, exception] of Object.entries(walls.EXCEPTIONS)) {
      expect([name, imported(new RegExp(exception.from), new RegExp(exception.to))]).toEqual([name, true]);
    }
    const features = new RegExp(`^server/(accounts|content|publishing|learning)/`);
    for (const surface of walls.HTTP_FOR_ROUTES) {
      expect([surface, imported(features, new RegExp(surface))]).toEqual([surface, true]);
    }
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
});
