import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The script is an ES module, which Jest's CommonJS runtime does not load: Node asks it. */
function buildState(base: string): string {
  const module = pathToFileURL(join(__dirname, 'build-state.mjs')).href;
  const script = `import { buildState } from ${JSON.stringify(module)}; console.log(buildState(${JSON.stringify(base)}));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout.trim();
}

/**
 * `npm run serve` refuses a build older than the checkout (docs/upgrading.md): the state of a checkout
 * made here, with its sources and build outputs dated on purpose.
 */
describe('the build check of npm run serve', () => {
  let base: string;
  const at = (path: string, seconds: number) => {
    const full = join(base, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, path);
    utimesSync(full, seconds, seconds);
  };
  const T = 1_800_000_000;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'lingonovel-build-state-'));
    at('server/main.ts', T);
    at('site/pages/index.astro', T);
    at('package.json', T);
    for (const output of ['dist/app/server/main.js', 'dist/web/server/entry.mjs', 'dist/web/client/sw.js'])
      at(output, T + 10);
    for (const dir of ['server', 'site', 'site/pages']) utimesSync(join(base, dir), T, T);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('is missing without a finished build (no stamp, or an output gone)', () => {
    expect(buildState(base)).toBe('missing');
    at('dist/.build-stamp', T + 20);
    rmSync(join(base, 'dist/web/client/sw.js'));
    expect(buildState(base)).toBe('missing');
  });

  it('is current when the build is newer than every source', () => {
    at('dist/.build-stamp', T + 20);
    expect(buildState(base)).toBe('current');
  });

  it('is stale once a source changes after the build (a git pull), tests and node_modules aside', () => {
    at('dist/.build-stamp', T + 20);
    at('server/test/new.e2e-spec.ts', T + 30);
    at('server/node_modules/x/index.js', T + 30);
    utimesSync(join(base, 'server'), T, T);
    expect(buildState(base)).toBe('current');
    at('site/pages/index.astro', T + 30);
    utimesSync(join(base, 'site'), T, T);
    utimesSync(join(base, 'site/pages'), T, T);
    expect(buildState(base)).toBe('stale');
  });
});
